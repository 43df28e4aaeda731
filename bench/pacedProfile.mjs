// Where the paced stream's renderer time goes (webview.paced60s*, bench/webview.bench.mjs): the same
// posts the bench draws (bench/lib/pacedPosts.ts), in the same kind of panel, under a Chromium trace with
// the DevTools timeline categories, and (PROFILE_JS=1) a V8 CPU profile of the page. Not a benchmark (its
// file name has no `.bench`): a look for whoever works on the paced figure.
//   PACED_SECONDS=20 [PROFILE_JS=1] [CATEGORIES=a,b] node bench/pacedProfile.mjs
// Prints the renderer's CPU by thread and by trace event (self time: an event's thread time less its
// children's), each as a share of the renderer's CPU over the stream, and with PROFILE_JS=1 the page's
// costliest functions. Writes test-results/paced-profile/paced.trace.json (DevTools: Performance tab).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { buildWebview, launch, openPanel } from '../test/browser/browser.mjs';
import { root, startServer } from '../test/browser/server.mjs';
import { answerMarkdown } from './lib/answerMarkdown.mjs';
import { topFunctions } from './lib/cpuProfile.mjs';
import { percentile } from './lib/trace.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const { pacedPosts } = await tsImport('./lib/pacedPosts.ts', import.meta.url);
const { WEBVIEW_PROTOCOL_VERSION: PROTOCOL } = await tsImport('../src/common/webview/version.ts', import.meta.url);

const SECONDS = Number(process.env.PACED_SECONDS ?? 20);
const PER_SECOND = 200;
const PIECE = 20;
const CATEGORIES = process.env.CATEGORIES?.split(',') ?? ['toplevel', 'blink.user_timing', 'devtools.timeline', 'v8.execute'];

/**
 * AB='A|B|…': instead of the profile, the stream's renderer CPU share and main-thread phases for each
 * variant, a stylesheet added to the page (empty: as shipped) or `js:CODE` run in it, in ROUNDS
 * interleaved rounds, so that load moves every variant alike. E.g.
 *   AB='|.codicon-modifier-spin{animation:none!important}' ROUNDS=3 PACED_SECONDS=15 node bench/pacedProfile.mjs
 */
const AB = process.env.AB?.split('|');
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const out = path.join(root, 'test-results/paced-profile');
mkdirSync(out, { recursive: true });
await buildWebview();
const server = await startServer();
const browser = await launch();
if (AB) {
  try {
    await ab(AB);
  } finally {
    await browser.close();
    await server.close();
  }
  process.exit(0);
}
try {
  const panel = await openPanel(browser, server, { width: 800, height: 1000, ...(process.env.REDUCED ? { reducedMotion: 'reduce' } : {}) });
  await panel.page.evaluate(defineHelpers, PROTOCOL);
  const markdown = answerMarkdown(SECONDS * PER_SECOND * PIECE);
  const { first, timed } = pacedPosts(markdown, PIECE, PER_SECOND);
  const cdp = process.env.PROFILE_JS ? await panel.page.context().newCDPSession(panel.page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  await browser.startTracing(panel.page, { categories: CATEGORIES });
  const run = await panel.page.evaluate((o) => window.__bench.timed(o), { name: 'paced', first, timed, markdown });
  await panel.page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  const buffer = await browser.stopTracing();
  const profile = cdp ? (await cdp.send('Profiler.stop')).profile : null;
  writeFileSync(path.join(out, 'paced.trace.json'), buffer);
  console.log(`${SECONDS} s stream, ${timed.length} posts, text ok: ${run.ok}`);
  report(JSON.parse(buffer.toString('utf8')));
  if (profile) {
    console.log('JS, costliest functions by self time (ms):');
    const top = topFunctions(profile, { limit: 400 }).sort((a, b) => b.selfMs - a.selfMs);
    for (const f of top.slice(0, 30)) console.log(`  self ${f.selfMs.toFixed(1).padStart(7)}  total ${f.totalMs.toFixed(1).padStart(7)}  ${f.fn}`);
  }
} finally {
  await browser.close();
  await server.close();
}

/**
 * CPU (thread time) over the stream in the page's renderer: by thread (its outermost events), and by
 * thread and event name (self time: the event's thread time less its children's), with counts.
 */
function breakdown(events) {
  const start = events.find((e) => e.name === 'paced-start');
  const end = events.find((e) => e.name === 'paced-end');
  const pid = start.pid;
  const threads = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid).map((e) => [e.tid, e.args.name]));
  const byThread = new Map();
  for (const e of events) {
    if (e.pid !== pid || e.ph !== 'X' || typeof e.tdur !== 'number' || e.ts < start.ts || e.ts >= end.ts) continue;
    if (!byThread.has(e.tid)) byThread.set(e.tid, []);
    byThread.get(e.tid).push({ ts: e.ts, dur: e.dur, tdur: e.tdur, name: e.name, children: 0 });
  }
  const self = new Map();
  const count = new Map();
  const threadCpu = new Map();
  for (const [tid, list] of byThread) {
    const name = (threads.get(tid) ?? String(tid)).replace(/\d+$/, '');
    if (/^(Perfetto|Chrome_ChildIOThread)/.test(name)) continue;
    list.sort((x, y) => x.ts - y.ts || y.dur - x.dur);
    const stack = [];
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) parent.children += e.tdur;
      else threadCpu.set(name, (threadCpu.get(name) ?? 0) + e.tdur / 1000);
      stack.push(e);
    }
    for (const e of list) {
      const k = `${name} ${e.name}`;
      self.set(k, (self.get(k) ?? 0) + Math.max(0, e.tdur - e.children) / 1000);
      count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  const total = [...threadCpu.values()].reduce((x, y) => x + y, 0);
  return { total, seconds: (end.ts - start.ts) / 1e6, threadCpu, self, count };
}

function report(t) {
  const { total, seconds, threadCpu, self, count } = breakdown(t.traceEvents ?? t);
  console.log(`renderer CPU ${total.toFixed(0)} ms over ${seconds.toFixed(1)} s: ${(total / 1000 / seconds).toFixed(3)} of a core`);
  for (const [n, ms] of [...threadCpu].sort((x, y) => y[1] - x[1])) console.log(`  ${n}: ${ms.toFixed(0)} ms (${((100 * ms) / total).toFixed(1)} %)`);
  console.log('by event, self time:');
  for (const [k, ms] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 30))
    console.log(`  ${ms.toFixed(0).padStart(6)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${String(count.get(k)).padStart(6)}x  ${k}`);
}

/** The A/B mode: each variant's renderer CPU share of the stream and its main thread's phases, by round and median. */
async function ab(variants) {
  const markdown = answerMarkdown(SECONDS * PER_SECOND * PIECE);
  const { first, timed } = pacedPosts(markdown, PIECE, PER_SECOND);
  const PHASES = ['Paint', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Layerize'];
  const rows = variants.map(() => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, css] of variants.entries()) {
      const panel = await openPanel(browser, server, { width: 800, height: 1000 });
      await panel.page.evaluate(defineHelpers, PROTOCOL);
      // `js:CODE` runs CODE in the page; anything else is a stylesheet.
      if (css.startsWith('js:')) await panel.page.evaluate(css.slice(3));
      else
        await panel.page.evaluate((text) => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(text);
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        }, css);
      await browser.startTracing(panel.page, { categories: CATEGORIES });
      const run = await panel.page.evaluate((o) => window.__bench.timed(o), { name: 'paced', first, timed, markdown });
      await panel.page.evaluate(() => new Promise((res) => setTimeout(res, 200)));
      const buffer = await browser.stopTracing();
      await panel.close();
      if (!run.ok) throw new Error(`variant ${i}: the answer did not arrive intact`);
      const b = breakdown(JSON.parse(buffer.toString('utf8')).traceEvents);
      const per = (ms) => ms / b.seconds;
      const row = {
        share: b.total / 1000 / b.seconds,
        main: per(b.threadCpu.get('CrRendererMain') ?? 0),
        compositor: per(b.threadCpu.get('Compositor') ?? 0),
        workers: per(b.threadCpu.get('ThreadPoolForegroundWorker') ?? 0),
        layouts: per(b.count.get('CrRendererMain Layout') ?? 0),
        ...Object.fromEntries(PHASES.map((n) => [n, per(b.self.get(`CrRendererMain ${n}`) ?? 0)])),
      };
      rows[i].push(row);
      console.log(`round ${r + 1} variant ${i}: ${fmt(row)}`);
    }
  for (const [i, css] of variants.entries()) {
    const med = Object.fromEntries(
      Object.keys(rows[i][0]).map((k) => [
        k,
        percentile(
          rows[i].map((x) => x[k]),
          0.5,
        ),
      ]),
    );
    console.log(`variant ${i} (${css || 'as shipped'}), medians: ${fmt(med)}`);
  }
}

/** A row of the A/B mode: the share of a core, then ms of CPU (or layouts) per second of stream. */
function fmt(row) {
  return Object.entries(row)
    .map(([k, v]) => `${k} ${k === 'share' ? v.toFixed(3) : v.toFixed(1)}`)
    .join(', ');
}
