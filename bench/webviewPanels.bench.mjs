// Four chat panels streaming at once, in headless Chromium, the way VS Code shows them: every webview is an
// iframe of the workbench, served from an origin of its own (a unique one per webview), so four panels are
// four iframes of the test page (the built dist/webview.js under the real CSP, each its own document with
// its own app) in ONE page, the page in front. (Four separate pages do not work: Chromium runs the timers
// and frames of pages not in front a few times a second, even with --disable-renderer-backgrounding and
// friends, and a per-frame figure measured that throttling.) Two layouts, alternating in the same run:
// - own sites (the figures with goals): each panel on a site of its own (127.0.0.2-5), which Chromium's
//   site isolation puts in a renderer process of its own, as VS Code's unique webview origins are (the
//   bench checks the processes from the trace);
// - shared: the four panels on the page's site, so all four draw on one main thread: the worst case, for
//   a browser or host that keeps them in one process.
// Each panel streams the paced answer of bench/webview.bench.mjs (webviewPage.mjs `paced`: 200 chunks/s of
// 20-character Markdown pieces, the chunks due in each ~16 ms coalesced into one patch, posted as VS Code
// delivers it; the panel draws with its own animation frames), all four started together; and the same
// stream in one panel alone on a site of its own, in the same run.
//   webview.fourPanelsFrameP95Ms / MaxMs  each panel's frame work while the four stream, each in its own
//                                  renderer: its main thread's CPU in each interval between the panel's
//                                  own animation frames, every panel's frames pooled
//   webview.fourPanelsSharedRendererFrameP95Ms / MaxMs  the shared layout: the one main thread's CPU in
//                                  each interval between the page's animation frames (every panel's work
//                                  for a frame falls in it); the log splits these frames by how many
//                                  panels drew in them. No goal: one frame holds up to four panels' draws
//   webview.fourPanelsOverOneCpuPerKb  the panels' renderers' CPU (every thread but tracing's) per streamed
//                                  KB with four panels streaming at once, each on its own site / with one
//                                  panel streaming alone: what panels side by side cost beyond their text
//                                  (the host's side of four chats at once is multi.fourChatsOverOne,
//                                  bench/multiChat.bench.ts); CPU as it is, not over the calibration: the
//                                  rounds alternate in the same run, so the machine's drift falls on both,
//                                  and a calibration's few rounds add noise
//   webview.fourPanelsFramesPerSecond  animation frames per second in each panel while streaming (the
//                                  lowest panel's): a page not in front gets a few; this one gets the
//                                  machine's pace (60 on a quiet machine, fewer when the cores are shared)
// The frame figures' ratios and goal as in bench/webview.bench.mjs (bench/lib/traced.mjs): CPU from the
// trace over a fixed DOM workload run in the same Chromium around each round. Each figure is the best of
// the rounds, as interference on a shared machine only ever adds to it.
//   BENCH_PANELS_SECONDS (default 15) seconds of stream per round, BENCH_PANELS_ROUNDS (default 2) rounds:
//   `node bench/webviewPanels.bench.mjs` runs these figures alone.
// Prints one JSON object as the last line.
import { tsImport } from 'tsx/esm/api';
import { buildWebview, launch } from '../test/browser/browser.mjs';
import { startServer } from '../test/browser/server.mjs';
import { answerMarkdown } from './lib/answerMarkdown.mjs';
import { percentile } from './lib/trace.mjs';
import { frameGoal, round, tracer } from './lib/traced.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const { WEBVIEW_PROTOCOL_VERSION: PROTOCOL } = await tsImport('../src/common/webview/version.ts', import.meta.url);

const PANELS = 4;
const SECONDS = Number(process.env.BENCH_PANELS_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_PANELS_ROUNDS ?? 2);
const PER_SECOND = 200;
const PIECE = 20;
/**
 * Each panel's size: the webview bench's panel (test/browser/browser.mjs openPanel), in two rows of two,
 * so the calibration, run in a panel, is the workload the goals were set on (its layout work depends on
 * the panel's size).
 */
const PANEL = { width: 520, height: 900 };

await buildWebview();
const server = await startServer();
// One page, in front: the only one the browser has.
const browser = await launch();
const { traced } = tracer(browser);
const page = await (await browser.newContext({ viewport: { width: 2 * PANEL.width, height: 2 * PANEL.height } })).newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => {
  if (m.type() === 'error') errors.push(m.text());
});
// The page with the panels, from the test server's origin: same-site iframes share its renderer process.
const framesUrl = `${server.origin}/panels.html`;
/**
 * A panel's page on a site of its own: 127.0.0.<2+i> (each loopback address is its own site, so Chromium's
 * site isolation gives the panel its own renderer process, as VS Code's unique origin per webview does).
 * Everything it loads is answered from the test server, with the test server's address in the page (its
 * CSP, its script and style links) turned into the panel's own: a page on a site of its own may not load
 * from 127.0.0.1 (Chromium's private network rules).
 */
const ownSite = (i) => server.pageUrl('dark').replace('//127.0.0.1:', `//127.0.0.${2 + i}:`);
await page.context().route(/^http:\/\/127\.0\.0\.[2-9]:\d+\//, async (route) => {
  const url = route.request().url();
  const site = /^http:\/\/127\.0\.0\.\d+:\d+/.exec(url)[0];
  const response = await route.fetch({ url: url.replace(site, server.origin) });
  const type = response.headers()['content-type'] ?? '';
  if (!type.startsWith('text/html')) return route.fulfill({ response });
  await route.fulfill({ response, body: (await response.text()).replaceAll(server.origin, site) });
});
await page.route(
  (url) => url.pathname === '/panels.html',
  (route) => {
    const q = new URL(route.request().url()).searchParams;
    const n = Number(q.get('n'));
    const own = q.get('sites') === 'own';
    const frames = Array.from({ length: n }, (_, i) => `<iframe src="${own ? ownSite(i) : server.pageUrl('dark')}"></iframe>`).join('');
    const style = `body{margin:0;display:grid;grid-template-columns:repeat(2,${PANEL.width}px);grid-auto-rows:${PANEL.height}px}iframe{border:0;width:100%;height:100%}`;
    return route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head><style>${style}</style></head><body>${frames}</body></html>` });
  },
);
/** Opens the page with `n` fresh panels; returns their frames, each with the bench's helpers. */
const openPanels = async (n, sites) => {
  await page.goto(`${framesUrl}?n=${n}&sites=${sites}`);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  if (frames.length !== n) throw new Error(`${frames.length} panels loaded, expected ${n}`);
  for (const f of frames) {
    await f.waitForFunction(() => window.__host && window.__host.posted.some((m) => m.type === 'ready'));
    await f.evaluate(defineHelpers, PROTOCOL);
  }
  return frames;
};
const markdown = answerMarkdown(SECONDS * PER_SECOND * PIECE);
/** A first, shorter stream, not counted: the browser's and the panel's first runs (compiling, caches) cost more. */
const WARM_UP = answerMarkdown(3 * PER_SECOND * PIECE);

/**
 * One round: `n` panels stream the answer at once, traced. The page marks each of its animation frames
 * (`frame-<i>`); each panel counts its own while streaming, and marks each time its transcript draws
 * (`draw`: what a frame's work grows with, read from the transcript's frame policy, TranscriptFrames).
 */
const streamIn = async (n, sites, text = markdown) => {
  const frames = await openPanels(n, sites);
  // The panels are new in every round: their first calibrations run cold (two to four times as long
  // until the page's code and layout warm up), so a few untraced ones first, as the webview bench's long-lived panel has had.
  for (let i = 0; i < 6; i++) await frames[0].evaluate((r) => window.__bench.calibrate(r), `warm-${i}`);
  for (const f of frames) {
    await f.evaluate(() => {
      // A private field of Transcript (webview/transcript.ts): said plainly if it moves.
      const policy = window.__acpChat.transcript.frames;
      if (typeof policy?.flush !== 'function') throw new Error('the transcript has no frame policy (transcript.frames) to mark draws by');
      const flush = policy.flush.bind(policy);
      policy.flush = () => {
        performance.mark('draw');
        flush();
      };
    });
  }
  const run = await traced(frames[0], async () => {
    await page.evaluate(() => {
      const loop = { on: true, n: 0 };
      window.__frameLoop = loop;
      const tick = () => {
        if (!loop.on) return;
        performance.mark(`frame-${loop.n++}`);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const streams = await Promise.all(
      frames.map((f, i) =>
        f.evaluate(
          async (o) => {
            let count = 0;
            let on = true;
            const t0 = performance.now();
            const tick = () => {
              if (!on) return;
              performance.mark(`panel-${o.panel}-frame-${count++}`);
              requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
            const r = await window.__bench.paced(o);
            on = false;
            return { ...r, framesPerSecond: (count * 1000) / (performance.now() - t0) };
          },
          { name: `paced-${i}`, panel: i, markdown: text, pieceBytes: PIECE, perSecond: PER_SECOND },
        ),
      ),
    );
    await page.evaluate(() => void (window.__frameLoop.on = false));
    return streams;
  });
  const { trace, cal, result: streams } = run;
  if (!streams.every((s) => s.ok)) throw new Error('a panel did not receive the answer intact');
  const starts = streams.map((_, i) => trace.mark(`paced-${i}-start`));
  const ends = streams.map((_, i) => trace.mark(`paced-${i}-end`));
  const marks = trace.marks(/^frame-\d+$/);
  const draws = trace.marks(/^draw$/);
  const panelPids = [...new Set(starts.map((m) => m.pid))];
  const pids = new Set([...starts, ...ends, ...marks, ...draws].map((m) => m.pid));
  if (sites === 'shared' && pids.size !== 1) throw new Error(`the page and its panels ran in ${pids.size} renderer processes`);
  if (sites === 'own' && (panelPids.length !== n || panelPids.includes(marks[0].pid)))
    throw new Error(`${n} panels on sites of their own ran in ${panelPids.length} renderer processes apart from the page's (site isolation off?)`);
  // Frames while every panel streams; CPU from the first panel's start to the last panel's end.
  const from = Math.max(...starts.map((m) => m.ts));
  const to = Math.min(...ends.map((m) => m.ts));
  const inStream = marks.filter((m) => m.ts >= from && m.ts <= to);
  // Shared: the page's frames on the one main thread all panels draw on. Own sites: each panel's frames
  // on its own renderer's main thread, all panels' frames pooled.
  const frameCpu =
    sites === 'shared'
      ? trace.frameCpu(marks[0].pid, inStream)
      : streams.flatMap((_, i) =>
          trace.frameCpu(
            starts[i].pid,
            trace.marks(new RegExp(`^panel-${i}-frame-\\d+$`)).filter((m) => m.ts >= from && m.ts <= to),
          ),
        );
  /** frameCpu's frames by how many panels drew in them: `[[drawn, cpuMs]]` (shared only). */
  const drawnIn = sites === 'shared' ? frameCpu.map((cpu, i) => [draws.filter((d) => d.ts >= inStream[i].ts && d.ts < inStream[i + 1].ts).length, cpu]) : [];
  const first = Math.min(...starts.map((m) => m.ts));
  const last = Math.max(...ends.map((m) => m.ts));
  const kb = streams.reduce((s, x) => s + x.bytes, 0) / 1024;
  const cpu = panelPids.reduce((sum, pid) => sum + trace.processCpu(pid, first, last), 0);
  const main = panelPids.reduce((sum, pid) => sum + trace.mainCpu(pid, first, last), 0);
  return {
    n,
    sites,
    cal,
    renderers: trace.renderers.length,
    frames: frameCpu,
    drawnIn,
    cpuPerKb: cpu / kb,
    mainPerKb: main / kb,
    cpuShare: cpu / ((last - first) / 1000),
    framesPerSecond: streams.map((s) => s.framesPerSecond),
    pageFramesPerSecond: (marks.length * 1e6) / (marks[marks.length - 1].ts - marks[0].ts),
  };
};

/** `drawn: p50/p95 ms (frames)` of the frames in which `drawn` panels drew: what a frame's CPU grows with. */
const byDrawn = (rows) =>
  [...new Set(rows.map(([d]) => d))]
    .sort((a, b) => a - b)
    .map((d) => {
      const cpu = rows.filter(([x]) => x === d).map(([, c]) => c);
      return `${d}: ${round(percentile(cpu, 0.5))}/${round(percentile(cpu, 0.95))} ms (${cpu.length})`;
    })
    .join(', ');

try {
  const one = [];
  const four = [];
  const shared = [];
  await streamIn(PANELS, 'own', WARM_UP);
  for (let r = 0; r < ROUNDS; r++) {
    one.push(await streamIn(1, 'own'));
    four.push(await streamIn(PANELS, 'own'));
    // Over the calibration of the round before it: one taken in a panel that shares its process with
    // three others and the page measured two to three times as long, warmed up or not (not found why).
    const x = await streamIn(PANELS, 'shared');
    shared.push({ ...x, cal: four[four.length - 1].cal, sharedCal: x.cal });
  }
  if (errors.length) throw new Error(`the panels logged errors: ${errors.join('; ')}`);
  const p95 = (x) => percentile(x.frames, 0.95) / x.cal;
  const max = (x) => Math.max(...x.frames) / x.cal;
  const best = (xs, f) => xs.reduce((a, b) => (f(b) < f(a) ? b : a));
  const bestP95 = best(four, p95);
  const bestMax = best(four, max);
  const sharedP95 = best(shared, p95);
  const sharedMax = best(shared, max);
  const perKb = (xs) => Math.min(...xs.map((x) => x.cpuPerKb));
  const out = {
    'webview.fourPanelsFrameP95Ms': round(percentile(bestP95.frames, 0.95)),
    'webview.fourPanelsFrameP95Ms.ratio': round(p95(bestP95), 3),
    'webview.fourPanelsFrameP95Ms.goal': frameGoal(bestP95.cal),
    'webview.fourPanelsFrameMaxMs': round(Math.max(...bestMax.frames)),
    'webview.fourPanelsFrameMaxMs.ratio': round(max(bestMax), 3),
    'webview.fourPanelsFrameMaxMs.goal': frameGoal(bestMax.cal),
    'webview.fourPanelsOverOneCpuPerKb': round(perKb(four) / perKb(one), 3),
    'webview.fourPanelsOverOneCpuPerKb.goal': '<= 1.2',
    'webview.fourPanelsFramesPerSecond': round(Math.min(...four.flatMap((x) => x.framesPerSecond))),
    'webview.fourPanelsSharedRendererFrameP95Ms': round(percentile(sharedP95.frames, 0.95)),
    'webview.fourPanelsSharedRendererFrameP95Ms.ratio': round(p95(sharedP95), 3),
    'webview.fourPanelsSharedRendererFrameMaxMs': round(Math.max(...sharedMax.frames)),
    'webview.fourPanelsSharedRendererFrameMaxMs.ratio': round(max(sharedMax), 3),
  };
  for (const x of [...one, ...four, ...shared]) {
    const f = x.frames;
    console.log(
      `${x.n} panel(s), ${x.sites === 'own' ? 'each on its own site' : "on the page's site"}: ${x.renderers} renderer process(es) in the trace; calibration ${round(x.cal)} ms${x.sharedCal ? ` (in the shared process: ${round(x.sharedCal)} ms)` : ''}; frames ${f.length}, CPU p50/p95/max ${round(percentile(f, 0.5))}/${round(percentile(f, 0.95))}/${round(Math.max(...f))} ms (ratio p95 ${round(p95(x), 3)}, max ${round(max(x), 3)}); ` +
        `renderer CPU ${round(x.cpuPerKb, 2)} ms/KB (main ${round(x.mainPerKb, 2)}), ${round(100 * x.cpuShare)}% of a core; animation frames/s: page ${round(x.pageFramesPerSecond)}, panels ${x.framesPerSecond.map((v) => round(v)).join('/')}; ` +
        (x.sites === 'shared' ? `frame CPU p50/p95 by panels drawn in the frame: ${byDrawn(x.drawnIn)}` : ''),
    );
  }
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  await server.close();
}
