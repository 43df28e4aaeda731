// Eight subagents streaming at once in the chat panel webview (headless Chromium, the built dist/webview.js):
// the turn of bench/subagents.bench.ts (8 children, 20,000 chunks each, round-robin, a chunk every 0.5 ms),
// with the parent shown and two children expanded in their cards. The posts are what the shipped host
// pipeline makes of the turn (MessageStore -> PanelSource/PanelFeed for the parent, SubagentFeeds with a
// SubagentModel per expanded child, frames every 16 ms of a simulated clock), delivered to the page at
// their times in real time (a structured clone each, as VS Code delivers them). The baseline is the same
// chunks on one shown session (the single-session stream), posted and delivered the same way, in the same run.
//   webviewSubagents.cpuShare          the renderer's CPU over the stream / its duration (every thread of
//                                      its process but tracing's); `.ratio` in calibrations per second, goal
//                                      25% of a core in this run's calibrations (250 ms / the calibration
//                                      measured around the stream), as webview.paced60sWithHostCpuShare's
//   webviewSubagents.lastOverFirstPerKb the renderer's CPU per KB posted in the stream's last 10 s / in its
//                                      first 10 s after the first second, each the median of its seconds
//                                      (1: the cost does not grow with the answers; lib/perKb.mjs), goal as
//                                      webview.paced60sLastOverFirstPerKb's
//   webviewSubagents.frameP95Ms        main-thread busy time per frame (rAF to rAF) over the stream; `.ratio`
//                                      goal: one 60 Hz frame over the calibration measured around it (frameGoal), as the
//                                      webview's frame goals; frameMaxMs, the worst frame, has none (the
//                                      single-session stream's own worst frame does not meet one either:
//                                      a trace on a shared machine bills the hypervisor's pauses to a frame)
//   webviewSubagents.cpuOverOneSession the renderer's CPU for the subagent turn / for the same chunks on one
//                                      shown session (for scale: the collapsed six children post nothing)
//   webviewSubagents.oneSession*       the baseline's own figures, for scale
// Each figure is the median over BENCH_SUBAGENT_ROUNDS (default 3) interleaved rounds of both streams; a
// ratio's spread is its per-round ratios' (lib/rounds.ts). One stream gave its flat-per-KB figure anywhere
// from 0.93 to 1.3 on the same code on this machine.
// BENCH_SUBAGENT_CHUNKS (per child, default 20,000) shortens the turn while working on it.
import { tsImport } from 'tsx/esm/api';
import { buildWebview, launch, openPanel } from '../test/browser/browser.mjs';
import { startServer } from '../test/browser/server.mjs';
import { lastOverFirstPerKb } from './lib/perKb.mjs';
import { percentile } from './lib/trace.mjs';
import { frameGoal, ratio, round, tracer } from './lib/traced.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const imp = (p) => tsImport(p, import.meta.url);
const { MessageStore } = await imp('../src/common/store/index.ts');
const { PanelFeed, PanelSource } = await imp('../src/common/webview/panelFeed.ts');
const { SubagentFeeds } = await imp('../src/common/webview/subagentFeeds.ts');
const { SubagentModel } = await imp('../src/common/webview/subagentModel.ts');
const { isUnder } = await imp('../src/common/store/sessionTree.ts');
const { Emitter } = await imp('../src/common/util/lifecycle.ts');
const { WEBVIEW_PROTOCOL_VERSION: PROTOCOL } = await imp('../src/common/webview/version.ts');
const { EMPTY_PANEL } = await imp('../src/common/webview/emptyPanel.ts');
const { announce, children, chunk, chunkText, openSession } = await imp('./lib/subagentWire.ts');
const { interleavedRounds, median, ratioFigure } = await imp('./lib/rounds.ts');

/** Rounds of the two streams (BENCH_SUBAGENT_ROUNDS), interleaved: about 3 minutes each. */
const ROUNDS = Number(process.env.BENCH_SUBAGENT_ROUNDS ?? 3);
const CHILDREN = 8;
const EXPANDED = 2;
const PER_CHILD = Number(process.env.BENCH_SUBAGENT_CHUNKS ?? 20_000);
const CHUNKS = CHILDREN * PER_CHILD;
const CHUNK_MS = 4 / CHILDREN;
const FRAME_MS = 16;
const PARENT = '5f0c2a9e-7d41-4b8e-9c3a-1e2d3f4a5b6c';
const ALONE = '0b7e4c21-93fd-4a6e-8d15-c2f8a9e3d704';
const kids = children(CHILDREN);
const kid = (i) => kids[i % CHILDREN];
/**
 * The i-th chunk's text: the host bench's, with a paragraph break every 100 chunks of a child (~300
 * characters), as agents write. Without it each child's answer is one paragraph of 60 KB, which the panel's
 * Markdown redraws whole as it grows, in the baseline too: that would measure the text's shape, not the panel.
 */
const text = (i, inMessage) => chunkText(i) + (inMessage % 100 === 99 ? '\n\n' : '');

/**
 * The posts a webview gets for one variant's turn, each with its time (ms from the stream's start): the
 * host pipeline run over the lines on a simulated clock, as bench/subagents.bench.ts runs it.
 */
function posts(variant) {
  const subagents = variant === 'subagents';
  const shown = subagents ? PARENT : ALONE;
  const store = new MessageStore({ now: () => 0 });
  const storeChanges = new Emitter();
  const out = [];
  let clock = 0;
  const post = (m) => out.push({ t: clock, m });
  const source = new PanelSource();
  const feed = new PanelFeed(post, () => clock);
  source.onDidChange((c) => {
    if (!feed.changed(c)) throw new Error('unexpected reset');
  });
  const feeds = new SubagentFeeds(
    post,
    () => undefined,
    () => clock,
  );
  const subagentView = (id) =>
    isUnder(store, id, shown)
      ? new SubagentModel({
          sessionId: id,
          agentName: 'Claude',
          session: (s) => store.session(s),
          notices: (s) => store.notices(s),
          onStoreChanged: storeChanges.event,
          act: () => undefined,
        })
      : undefined;
  let seq = 0;
  let frameEnd = -Infinity;
  const pending = () => feed.pending || feeds.pending;
  const line = (w, t) => {
    while (t >= frameEnd && pending()) {
      clock = frameEnd;
      feed.frame();
      feeds.frame();
      frameEnd += FRAME_MS;
    }
    if (!pending()) frameEnd = t + FRAME_MS;
    clock = t;
    const changes = store.ingest(w.dir, JSON.parse(w.line), ++seq);
    storeChanges.fire(changes);
    source.storeChanged(changes, shown, () => store.session(shown));
  };
  for (const w of subagents ? [...openSession(PARENT), ...kids.flatMap((c, i) => announce(PARENT, c, i))] : openSession(ALONE)) line(w, 0);
  // The webview's first snapshot (its cards expanded from its saved state), then the expanded children's.
  const s = store.session(shown);
  feed.snapshot(s.entries, { ...EMPTY_PANEL, agentName: 'Claude', sessionId: shown, turn: 'busy' });
  if (subagents)
    feeds.expand(
      kids.slice(0, EXPANDED).map((c) => c.sessionId),
      { subagentView },
    );
  for (let i = 0; i < CHUNKS; i++) {
    // The n-th chunk of its message: a child's (round-robin), or the one session's (one message after another).
    const w = subagents
      ? chunk(kid(i).sessionId, kid(i).messageId, kid(i).toolUseId, text(i, Math.floor(i / CHILDREN)))
      : chunk(ALONE, kid(Math.floor(i / PER_CHILD)).messageId, kid(i).toolUseId, text(i, i % PER_CHILD));
    line(w, i * CHUNK_MS);
  }
  feed.flush();
  feeds.flush();
  return out;
}

/** In the page: posts each message at its time (a 16 ms timer, as the host's), marking every frame; resolves once the last is painted. */
function deliver({ name, timed }) {
  return new Promise((resolve) => {
    let next = 0;
    let frame = 0;
    let drawing = true;
    const onFrame = () => {
      performance.mark(`${name}-frame-${frame++}`);
      if (drawing) requestAnimationFrame(onFrame);
    };
    performance.mark(`${name}-start`);
    requestAnimationFrame(onFrame);
    const t0 = performance.now();
    const timer = setInterval(() => {
      const now = performance.now() - t0;
      while (next < timed.length && timed[next].t <= now) window.postMessage(timed[next++].m, '*');
      if (next < timed.length) return;
      clearInterval(timer);
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          drawing = false;
          performance.mark(`${name}-end`);
          resolve({
            ms: performance.now() - t0,
            frames: frame,
            text: document.querySelector('.subagent-transcript')?.textContent?.length ?? document.querySelector('.transcript')?.textContent?.length ?? 0,
          });
        }),
      );
    }, 16);
  });
}

await buildWebview();
const server = await startServer();
const browser = await launch();
const { traced } = tracer(browser);
try {
  const postsOf = { subagents: posts('subagents'), oneSession: posts('oneSession') };
  const run = async (variant) => {
    const all = postsOf[variant];
    const [first, ...timed] = all;
    const streamed = timed.filter((p) => p.m.type === 'patch' || p.m.message?.type === 'patch');
    const setup = timed.filter((p) => !streamed.includes(p));
    const state = variant === 'subagents' ? { v: PROTOCOL, draft: '', scrollKey: null, expandedSubagents: kids.slice(0, EXPANDED).map((c) => c.sessionId) } : undefined;
    const panel = await openPanel(browser, server, { width: 800, height: 1000, ...(state ? { state } : {}) });
    await panel.page.evaluate(defineHelpers, PROTOCOL);
    await panel.page.evaluate(
      ({ first: f, setup: s }) => {
        window.__host.send(f.m);
        for (const p of s) window.__host.send(p.m);
        window.__acpChat.flush();
      },
      { first, setup },
    );
    if (variant === 'subagents') {
      // Cards near the viewport are built in the frames that follow.
      await panel.page.waitForFunction((n) => document.querySelectorAll('.subagent-transcript').length >= n, EXPANDED, { timeout: 10_000 }).catch(() => undefined);
      const expanded = await panel.page.evaluate(() => document.querySelectorAll('.subagent-transcript').length);
      if (expanded !== EXPANDED) throw new Error(`${expanded} subagent transcripts expanded, expected ${EXPANDED}`);
    }
    const r = await traced(panel.page, () => panel.page.evaluate(deliver, { name: variant, timed: streamed }));
    const start = r.trace.mark(`${variant}-start`);
    const end = r.trace.mark(`${variant}-end`);
    const cpu = r.trace.processCpu(start.pid, start.ts, end.ts);
    const frames = r.trace.frameCpu(start.pid, r.trace.marks(new RegExp(`^${variant}-frame-\\d+$`)));
    // CPU per KB posted, the last 10 s over the first (lib/perKb.mjs).
    const seconds = Math.floor((end.ts - start.ts) / 1e6);
    const kbBySecond = [];
    for (const p of streamed) kbBySecond[Math.floor(p.t / 1000)] = (kbBySecond[Math.floor(p.t / 1000)] ?? 0) + JSON.stringify(p.m).length / 1024;
    const kb = (from, to) => kbBySecond.slice(from, to).reduce((n, k) => n + (k ?? 0), 0);
    const cpuIn = (from, to) => r.trace.processCpu(start.pid, start.ts + from * 1e6, start.ts + to * 1e6);
    const flat = lastOverFirstPerKb({ seconds, cpu: cpuIn, kb });
    console.log(`${variant}: CPU per KB (median of its seconds) seconds 1-${1 + flat.window} ${round(flat.first, 3)} ms, the last ${flat.window} s ${round(flat.last, 3)} ms`);
    await panel.close();
    const bytes = all.reduce((n, p) => n + JSON.stringify(p.m).length, 0);
    return { cpu, share: cpu / ((end.ts - start.ts) / 1000), lastOverFirstPerKb: flat.ratio, frames, cal: r.cal, posts: streamed.length, bytes, result: r.result };
  };
  // Interleaved rounds (lib/rounds.ts): the subagent turn and the one session one after the other, the
  // order reversed every other round; each figure is the median over the rounds (a ratio's, of its per-round
  // ratios, with their spread), and the frames of every round are pooled.
  const { sub, one } = await interleavedRounds(ROUNDS, { sub: () => run('subagents'), one: () => run('oneSession') });
  const figures = (prefix, xs) => {
    const frames = xs.flatMap((x) => x.frames);
    const cal = median(xs.map((x) => x.cal));
    return {
      [`${prefix}cpuShare`]: round(median(xs.map((x) => x.share)), 3),
      ...ratioFigure(
        `${prefix}cpuShare.ratio`,
        xs.map((x) => x.share * 1000),
        xs.map((x) => x.cal),
      ),
      ...ratioFigure(
        `${prefix}lastOverFirstPerKb`,
        xs.map((x) => x.lastOverFirstPerKb),
        xs.map(() => 1),
      ),
      [`${prefix}frameP95Ms`]: round(percentile(frames, 0.95)),
      [`${prefix}frameP95Ms.ratio`]: ratio(percentile(frames, 0.95), cal),
      [`${prefix}frameMaxMs`]: round(Math.max(...frames)),
      [`${prefix}frameMaxMs.ratio`]: ratio(Math.max(...frames), cal),
    };
  };
  const subCal = median(sub.map((x) => x.cal));
  const out = {
    'webviewSubagents.rounds': ROUNDS,
    ...figures('webviewSubagents.', sub),
    // The budget in this run's calibrations, as webview.paced60sWithHostCpuShare's (PACED_GOAL_MS there).
    'webviewSubagents.cpuShare.goal': `ratio <= ${round(250 / subCal, 3)} (25% of a core: 250 ms per s / ${round(subCal)} ms, the median of this run's calibrations around the streams)`,
    'webviewSubagents.lastOverFirstPerKb.goal': '<= 1.1 (as webview.paced60sLastOverFirstPerKb)',
    'webviewSubagents.frameP95Ms.goal': frameGoal(subCal),
    ...ratioFigure(
      'webviewSubagents.cpuOverOneSession',
      sub.map((x) => x.cpu),
      one.map((x) => x.cpu),
    ),
    ...figures('webviewSubagents.oneSession.', one),
  };
  for (const [name, xs] of [
    ['subagents', sub],
    ['oneSession', one],
  ])
    for (const x of xs)
      console.log(
        `${name}: ${x.posts} posts (${x.bytes} bytes), ${round(x.result.ms / 1000)} s, ${x.frames.length} frames, ${round(x.cpu)} ms CPU, calibration ${round(x.cal)} ms`,
      );
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  await server.close();
}
