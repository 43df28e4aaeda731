// A chat at 100 % of the context meter compacts and goes on, in headless Chromium (the built dist/webview.js
// under the real CSP): a 50,000-entry transcript (bench/lib/webviewPage.mjs `entries`), the meter full, then,
// one post per animation frame as the host's PatchBatcher sends them: the compaction row inserted in
// progress, its summary streamed (the row goes whole on each change, viewEntry/patchBatcher), completed,
// Claude's repeated completed, the meter falling to 6 %, and the next answer streaming after it.
//   compaction.fullChat50kMaxFrameMs  the worst frame's main-thread CPU from the row's insert to the end of
//                                  the next answer (`.ratio`: over the calibration measured around it; the
//                                  goal is one 60 Hz frame: 16.7 ms over that calibration, frameGoal in
//                                  bench/lib/traced.mjs)
//   compaction.fullChat50kP95FrameMs  the same, 95th percentile
//   compaction.overPlainStreamMaxFrame  that worst frame / the worst frame of the same number of frames
//                                  streaming only the answer in the same chat (no compaction): what the
//                                  compaction adds, for scale (no goal: each over its own calibration, which
//                                  moved 87-120 ms between rounds on the shared machine)
// Each figure is the best of ROUNDS rounds (a fresh panel each), as interference on a shared machine only
// adds to it. Prints one JSON object as the last line.
import { tsImport } from 'tsx/esm/api';
import { buildWebview, launch, openPanel } from '../test/browser/browser.mjs';
import { startServer } from '../test/browser/server.mjs';
import { percentile } from './lib/trace.mjs';
import { frameGoal, ratio, round, tracer } from './lib/traced.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const ENTRIES = 50_000;
const SUMMARY_FRAMES = 30;
const ANSWER_FRAMES = 60;
const ROUNDS = Number(process.env.BENCH_COMPACTION_ROUNDS ?? 2);
const { WEBVIEW_PROTOCOL_VERSION: PROTOCOL } = await tsImport('../src/common/webview/version.ts', import.meta.url);

await buildWebview();
const server = await startServer();
const browser = await launch();
const { traced } = tracer(browser);

/** Runs in the page: the posts, one per animation frame, each frame marked; `compact` false streams the answer alone. */
function play({ entries, summaryFrames, answerFrames, compact }) {
  const size = 1_000_000;
  const row = (status, text) => ({ kind: 'compaction', key: 'cmp', compactionId: 'c1', status, summary: text ? [{ type: 'text', text }] : [], error: null, provenance: 'live' });
  const line = (i) => `- item ${i}: the \`store\` kept **what mattered** and dropped the rest.\n`;
  const posts = [];
  let text = '## Summary\n';
  if (compact) {
    posts.push([{ op: 'insert', entry: row('in_progress', '') }]);
    for (let i = 0; i < summaryFrames; i++) posts.push([{ op: 'replace', h: entries, entry: row('in_progress', (text += line(i))) }]);
    posts.push([{ op: 'replace', h: entries, entry: row('completed', text) }]);
    posts.push([
      { op: 'replace', h: entries, entry: row('completed', text) },
      { op: 'panel', panel: { usage: { used: size * 0.06, size } } },
    ]);
  }
  const answer = compact ? entries + 1 : entries;
  posts.push([{ op: 'insert', entry: { kind: 'agent_message', key: 'next', content: [], provenance: 'live' } }]);
  for (let i = 0; i < answerFrames; i++) posts.push([{ op: 'appendText', h: answer, text: `word${i} and the **next** one; ` }]);
  return new Promise((resolve) => {
    let i = 0;
    const step = () => {
      performance.mark(`frame-${i}`);
      if (i === posts.length) return resolve(posts.length);
      window.postMessage({ type: 'patch', ops: posts[i] }, '*');
      i++;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

async function round1(compact) {
  const panel = await openPanel(browser, server, { width: 800, height: 1000 });
  await panel.page.evaluate(defineHelpers, PROTOCOL);
  // The full chat, settled: every part of the snapshot in, the meter at 100 %, /compact offered.
  await panel.page.evaluate((n) => window.__bench.snapshot(n), ENTRIES);
  await panel.page.evaluate(() => window.__bench.drained());
  await panel.page.evaluate(() =>
    window.postMessage(
      { type: 'patch', ops: [{ op: 'panel', panel: { turn: 'busy', usage: { used: 1_000_000, size: 1_000_000 }, availableCommands: [{ name: 'compact', description: '' }] } }] },
      '*',
    ),
  );
  const run = await traced(panel.page, () => panel.page.evaluate(play, { entries: ENTRIES, summaryFrames: SUMMARY_FRAMES, answerFrames: ANSWER_FRAMES, compact }));
  const marks = run.trace.marks(/^frame-\d+$/);
  const frames = run.trace.frameCpu(marks[0].pid, marks);
  const shown = await panel.page.evaluate(() => ({
    row: document.querySelector('[data-kind="compaction"] .compaction-state')?.textContent ?? null,
    answer: document.querySelector('[data-key="next"]')?.textContent ?? '',
  }));
  await panel.close();
  if (compact && shown.row !== 'conversation compacted') throw new Error(`the row shows ${JSON.stringify(shown.row)}`);
  if (!shown.answer.includes(`word${ANSWER_FRAMES - 1}`)) throw new Error('the next answer did not arrive whole');
  return { max: Math.max(...frames), p95: percentile(frames, 0.95), cal: run.cal };
}

try {
  const best = { compact: null, plain: null };
  for (let r = 0; r < ROUNDS; r++) {
    for (const v of r % 2 ? ['plain', 'compact'] : ['compact', 'plain']) {
      const got = await round1(v === 'compact');
      console.log(`round ${r} ${v}: max frame ${round(got.max)} ms, p95 ${round(got.p95)} ms, calibration ${round(got.cal)} ms`);
      const prev = best[v];
      if (!prev || got.max / got.cal < prev.max / prev.cal) best[v] = got;
    }
  }
  const { compact, plain } = best;
  console.log(
    JSON.stringify({
      'compaction.fullChat50kMaxFrameMs': round(compact.max),
      'compaction.fullChat50kMaxFrameMs.ratio': ratio(compact.max, compact.cal),
      'compaction.fullChat50kMaxFrameMs.goal': frameGoal(compact.cal),
      'compaction.fullChat50kP95FrameMs': round(compact.p95),
      'compaction.fullChat50kP95FrameMs.ratio': ratio(compact.p95, compact.cal),
      'compaction.overPlainStreamMaxFrame': round(compact.max / compact.cal / (plain.max / plain.cal), 3),
    }),
  );
} finally {
  await browser.close();
  await server.close();
}
process.exit(0);
