// Chat panel webview in headless Chromium (the built dist/webview.js under the real CSP):
//   webview.snapshot10kMs          a 10,000-entry snapshot posted (structured clone, as VS Code delivers it)
//                                  -> its first frame painted (see firstPaint below)
//   webview.snapshot10kVsFullRatio that time / the time to build every entry (what a panel without
//                                  virtualization pays), measured in the same run on 1,000 entries and
//                                  scaled to 10,000 (building all 10,000 takes long enough to stall the bench)
//   webview.apply100kChunksMs      100,000 streamed chunks applied as the host sends them: one `patch` per
//                                  ~16 ms frame with one coalesced `appendText` per entry, each frame drawn
//   webview.apply100kChunksPerFrameUs  mean webview work per frame (the budget is 16,000)
//   webview.simulatedBytesPostedPerTextByte  the same ratio for this simulated batching (the real host
//                                  pipeline is measured by bench/hostPatches.bench.ts)
//   webview.scroll10kFrameP95Ms / P99Ms / MaxMs  main-thread work per frame while scrolling a 10,000-entry transcript
//                                  from the bottom to the top at 6,000 px/s (one wheel step of 100 px per
//                                  frame), from a Chromium trace: the busy time of the renderer's main thread
//                                  in each frame interval (entries built, markdown rendered, style, layout,
//                                  paint), so 16 ms is the budget whatever the display's refresh rate;
//                                  each frame's lowest over SCROLL_PASSES passes (see there)
//   webview.scroll10kFarFrameP95Ms the same, for the next 960 frames of that scroll (up to 120,000 px):
//                                  whether frames stay cheap as the entries built along the way pile up
//   webview.history100k*           a saved chat of 100,000 entries (25,000 turns through the real store):
//                                  FirstPaintMs  its snapshot posted -> the newest entries painted
//                                  ReattachMs    session/load replays all of it (merged by the store: no
//                                                duplicates, checked in the webview) -> the replay's
//                                                patches and the panel fields the reattach ends with
//                                                applied and painted (no fresh snapshot since the
//                                                panel shows the same session: ChatView.attached)
//                                  HostReplayMs  the store merging the 100,000 replayed entries and
//                                                the panel's patches for them (Node, for scale)
//   webview.idleCpuMsPer10s        an open, idle chat of 10,000 entries: the renderer's CPU (every thread
//                                  of its process but tracing's) over 10 s, from a trace, less what a
//                                  static page's renderer uses over the same 10 s (Chromium's own
//                                  housekeeping, e.g. the compositor evicting resources). The prompt box is
//                                  not focused: a focused box's blinking caret costs Chromium about 40 ms per
//                                  10 s here (44 focused vs 4.3 blurred, measured 11-29), as in any text field,
//                                  and would hide the panel's own idle work, which this figure is about.
//                                  The median of IDLE_WINDOWS windows back to back, each less the static
//                                  page's over the same window: a one-off lands in one window, and idle is
//                                  what goes on. The one-off a trace showed (11-30): V8's memory reducer,
//                                  two major collections 20-30 s after the snapshot, 66-115 ms of the
//                                  renderer's CPU; one window alone gave 0 to 10.8 ms in the last four runs.
//                                  Each window's figure: webview.idleCpuMsPer10sEachWindow
//   webview.paced60s*              a 60 s answer streamed at 200 chunks/s of 20-character Markdown pieces
//                                  (one 240 KB message), the renderer drawing the posts the shipped host
//                                  pipeline makes of it while the host side runs the same stream in a process
//                                  of its own (see pacedStream): WithHostCpuShare is renderer + host CPU over
//                                  the stream / its duration (goal: PACED_GOAL_MS), CpuShare and
//                                  HostCpuShare each side's; LastOverFirstPerKb the CPU (both sides) per
//                                  streamed KB in the last 10 s / in the first 10 s, each the median of its
//                                  seconds (1: the cost does not grow with the message; lib/perKb.mjs)
// Four panels streaming at once: bench/webviewPanels.bench.mjs (four iframes in one page, as VS Code shows
// webviews; four pages would not do, as Chromium throttles the timers and frames of pages not in front).
//
// `<figure>.ratio`: the figure's renderer main-thread CPU time (from the trace, not wall time: the same on
// a loaded machine, where wall time grows while the thread waits for a core) divided by a calibration
// measured in the same Chromium in the same run, the CPU time of a fixed DOM workload (2,000 paragraphs
// of the transcript's text inserted as plain text nodes and laid out; webviewPage.mjs `calibrate`). The
// goals are on these ratios: the ratio measured when the goal was set (on this 2-core machine, shared),
// with ~40% headroom, as far as calibrations taken around the same figure spread in one loaded run; and
// one 60 Hz frame for the frame figures, 16.7 ms over the calibration measured around them in this run
// (frameGoal, bench/lib/traced.mjs: ratio <= 16.7 / cal, met exactly when the frame took <= 16.7 ms of CPU). The figures themselves stay in wall
// milliseconds, for scale.
// Prints one JSON object as the last line.
// BENCH_ONLY=paced runs the paced stream alone (its figures only; ~1.5 min with the build), for working on it.
import { spawn } from 'node:child_process';
import { tsImport } from 'tsx/esm/api';
import { buildWebview, launch, openPanel } from '../test/browser/browser.mjs';
import { startServer } from '../test/browser/server.mjs';
import { answerMarkdown } from './lib/answerMarkdown.mjs';
import { lastOverFirstPerKb } from './lib/perKb.mjs';
import { percentile } from './lib/trace.mjs';
import { between, frameGoal, ratio, round, tracer } from './lib/traced.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const { longHistory } = await tsImport('./fixtures/longHistory.ts', import.meta.url);
const { pacedPosts } = await tsImport('./lib/pacedPosts.ts', import.meta.url);
const { WEBVIEW_PROTOCOL_VERSION: PROTOCOL } = await tsImport('../src/common/webview/version.ts', import.meta.url);

const ENTRIES = 10_000;
const FULL_BUILD_ENTRIES = 1_000;
const CHUNKS = 100_000;
const MESSAGES = 20; // 5,000 chunks each: long answers, where per-chunk re-rendering would hurt most
const CHUNKS_PER_FRAME = 25; // ~1,500 chunks/s: a fast agent
const SCROLL_FRAMES = 240;
const FAR_SCROLL_FRAMES = 960;
const SCROLL_STEP = 100;
/**
 * Passes of the same scroll, each on a fresh panel. A frame's figure is its lowest CPU time over the
 * passes (bestByFrame): frame i of every pass does the same work (the same scroll position, the same
 * entries opened and built), and on a shared virtual machine interference only ever adds to it. In a
 * trace of one pass at load 10 the worst frames (30-43 ms CPU) were time billed to the renderer's main
 * thread while no work ran (self time of RunTask, RunMicrotasks or a forced-layout wrapper, with no
 * style, layout, paint or script under it): the hypervisor's, not the panel's; the costliest real work
 * in a frame was a 15 ms layout of entries just built. The calibration the
 * frames are divided by is likewise the lowest of the passes' calibrations.
 */
const SCROLL_PASSES = 3;
const HISTORY_TURNS = Number(process.env.BENCH_HISTORY_TURNS ?? 25_000); // 100,000 entries
const IDLE_MS = 10_000;
const IDLE_WINDOWS = 3;
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 60);
const PACED_PER_SECOND = 200;
const PIECE = 20;
/**
 * The paced stream's goal (issue 46): the renderer and the extension host together at most 0.20 of a core,
 * PACED_GOAL_MS = 200 ms of CPU per second of stream. Its ratio is that CPU per second over the calibration
 * measured in this run around the stream (`cal`, ms of CPU per round, see pacedStream), and the ratio's goal
 * is the same budget in the same unit, from the same `cal`:
 *   ratio = (renderer + host CPU ms) / (stream s) / cal        goal: ratio <= PACED_GOAL_MS / cal
 *   e.g. a quiet run's cal of 111 ms: ratio <= 200 / 111 = 1.80, met exactly when the share is <= 0.20.
 * No calibration from another run goes into it: a constant 35 ms (the quiet machine's best calibration,
 * in a fresh panel with nothing else running) let 200 / 35 = 5.71 through where this run's calibration
 * allowed 1.80, about three times the budget.
 */
const PACED_GOAL_MS = 200;

await buildWebview();
const server = await startServer();
const browser = await launch();
const { traced, calibration } = tracer(browser);
const newPanel = async () => {
  const panel = await openPanel(browser, server, { width: 800, height: 1000 });
  await panel.page.evaluate(defineHelpers, PROTOCOL);
  return panel;
};
if (process.env.BENCH_ONLY === 'paced') {
  try {
    const paced = await pacedStream();
    console.log(`calibration around the paced stream (median): ${round(paced.cal)} ms CPU`);
    console.log(paced.line);
    paced.check();
    console.log(JSON.stringify(paced.figures));
  } finally {
    await browser.close();
    await server.close();
  }
  process.exit(0);
}
try {
  const panel = await newPanel();
  const snap = await traced(panel.page, () => panel.page.evaluate((n) => window.__bench.snapshot(n), ENTRIES));
  const snapshot = snap.result;
  const snapshotCpu = between(snap.trace, 'snapshot');
  // The same chat left open: nothing should run.
  const staticPage = await (await browser.newContext()).newPage();
  await staticPage.setContent('<p>A static page: what an idle renderer costs by itself.</p>');
  // The panel focuses its prompt box when it opens (issue 38 r2 item 1); the caret's blink is not the panel's.
  await panel.page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  const idle = await traced(panel.page, () =>
    Promise.all([
      panel.page.evaluate(([ms, n]) => window.__bench.idle(ms, n), [IDLE_MS, IDLE_WINDOWS]),
      // The same stretches (they start a second later, once the chat has settled).
      staticPage.evaluate(
        async ([ms, n]) => {
          await new Promise((r) => setTimeout(r, 1000));
          for (let i = 0; i < n; i++) {
            performance.mark(`floor-${i}-start`);
            await new Promise((r) => setTimeout(r, ms));
            performance.mark(`floor-${i}-end`);
          }
        },
        [IDLE_MS, IDLE_WINDOWS],
      ),
    ]),
  );
  await staticPage.context().close();
  /** CPU ms per 10 s of the page that marked `<name>-start` and `<name>-end`, between the two. */
  const per10s = (name) => {
    const from = idle.trace.mark(`${name}-start`);
    const to = idle.trace.mark(`${name}-end`);
    return (idle.trace.processCpu(from.pid, from.ts, to.ts) * 10_000) / ((to.ts - from.ts) / 1000);
  };
  const idleWindows = Array.from({ length: IDLE_WINDOWS }, (_, i) => ({ renderer: per10s(`idle-${i}`), floor: per10s(`floor-${i}`) }));
  const idleEach = idleWindows.map((w) => Math.max(0, w.renderer - w.floor));
  const idleCpu = percentile(idleEach, 0.5);
  const idleRenderer = percentile(
    idleWindows.map((w) => w.renderer),
    0.5,
  );
  const idleFloor = percentile(
    idleWindows.map((w) => w.floor),
    0.5,
  );
  const idleFrom = idle.trace.mark('idle-0-start');
  const idleThreads = idle.trace.threadCpu(idleFrom.pid, idleFrom.ts, idle.trace.mark(`idle-${IDLE_WINDOWS - 1}-end`).ts);
  // Scrolling the same transcript up, traced: SCROLL_PASSES times, each on a fresh panel of the same
  // 10,000 entries (the first is the one above).
  const scrollFrames = async (p, frames) => {
    const { trace, cal } = await traced(p.page, () => p.page.evaluate((o) => window.__bench.scroll(o), { frames, step: SCROLL_STEP }));
    const marks = trace.marks(/^frame-\d+$/);
    if (marks.length < 2) throw new Error('no frame marks in the trace');
    return { frames: trace.frameCpu(marks[0].pid, marks), cal };
  };
  const passes = [];
  for (let i = 0; i < SCROLL_PASSES; i++) {
    const p = i === 0 ? panel : await newPanel();
    if (i > 0) await p.page.evaluate((n) => window.__bench.snapshot(n), ENTRIES);
    const near = await scrollFrames(p, SCROLL_FRAMES);
    // The same scroll carried on much further up: entries built along the way pile up, frames must not.
    const farther = await scrollFrames(p, FAR_SCROLL_FRAMES);
    passes.push({ near, far: farther });
    await p.close();
  }
  // The calibration taken the same way as the frames: the lowest of the passes'.
  const scroll = { frames: bestByFrame(passes.map((x) => x.near.frames)), cal: Math.min(...passes.map((x) => x.near.cal)) };
  const far = { frames: bestByFrame(passes.map((x) => x.far.frames)), cal: Math.min(...passes.map((x) => x.far.cal)) };
  const frames = scroll.frames;
  const farFrames = far.frames;
  /** Each pass's own worst frame, for scale: what one pass on this machine, at this load, showed. */
  const passMax = passes.map((x) => Math.max(...x.near.frames) / x.near.cal);

  const history = longHistory(HISTORY_TURNS);
  const long = await newPanel();
  // The snapshot is posted in the page; its older parts come as the host sends them, each its own task
  // with its own deserialization (the host serializes them, in another process).
  const deliverRest = (messages) => Promise.all(messages.map((m) => long.page.evaluate((msg) => window.__host.send(msg), m)));
  // Each run starts in the page; the older parts follow once the panel has the snapshot (they come after
  // it, as from the host), and the result is read once the page has it.
  const run = async (start, arg, rest) => {
    await long.page.evaluate(([name, a]) => void (window.__bench.result = window.__bench[name](a)), [start, arg]);
    await long.page.waitForFunction(() => window.__bench.handled);
    await deliverRest(rest);
    return long.page.evaluate(() => window.__bench.result);
  };
  const hist = await traced(long.page, async () => {
    const open = await run('openHistory', history.open[0], history.open.slice(1));
    await long.page.evaluate(() => window.__bench.drained());
    const reattach = await run('reattach', { ops: history.replayOps, after: history.after }, []);
    Object.assign(reattach, await long.page.evaluate(() => window.__bench.settled()));
    return { open, reattach };
  });
  const { open, reattach } = hist.result;
  const openCpu = between(hist.trace, 'history');
  const reattachCpu = between(hist.trace, 'reattach');
  await long.close();

  const full = await newPanel();
  const fullBuild = await full.page.evaluate((n) => window.__bench.buildAll(n), FULL_BUILD_ENTRIES);
  fullBuild.ms *= ENTRIES / FULL_BUILD_ENTRIES;
  await full.close();

  const stream = await newPanel();
  await stream.page.evaluate((o) => window.__bench.prepareStream(o), { chunks: CHUNKS, messages: MESSAGES, perFrame: CHUNKS_PER_FRAME });
  const applied = await traced(stream.page, () => stream.page.evaluate(() => window.__bench.stream()));
  const s = applied.result;
  const applyCpu = between(applied.trace, 'apply');
  await stream.close();

  const paced = await pacedStream();

  const cal = Math.min(...calibration);
  const out = {
    'webview.calibrationCpuMs': round(cal, 2),
    'webview.snapshot10kMs': round(snapshot.ms),
    'webview.snapshot10kMs.ratio': ratio(snapshotCpu, snap.cal),
    'webview.snapshot10kMs.goal': 'ratio <= 2.5 (1.8 when set)',
    'webview.snapshot10kVsFullRatio': round(snapshot.ms / fullBuild.ms, 3),
    'webview.apply100kChunksMs': round(s.ms),
    'webview.apply100kChunksMs.ratio': ratio(applyCpu, applied.cal),
    'webview.apply100kChunksMs.goal': 'ratio <= 11 (7.9 when set)',
    'webview.apply100kChunksPerFrameUs': round((applyCpu * 1000) / s.frames),
    // The real host pipeline's figure is webview.bytesPostedPerTextByte (bench/hostPatches.bench.ts).
    'webview.simulatedBytesPostedPerTextByte': round(s.postedBytes / s.textBytes, 3),
    'webview.scroll10kFrameP95Ms': round(percentile(frames, 0.95)),
    'webview.scroll10kFrameP95Ms.ratio': ratio(percentile(frames, 0.95), scroll.cal),
    'webview.scroll10kFrameP95Ms.goal': frameGoal(scroll.cal),
    'webview.scroll10kFrameP99Ms': round(percentile(frames, 0.99)),
    'webview.scroll10kFrameP99Ms.ratio': ratio(percentile(frames, 0.99), scroll.cal),
    'webview.scroll10kFrameP99Ms.goal': frameGoal(scroll.cal),
    'webview.scroll10kFrameMaxMs': round(Math.max(...frames)),
    'webview.scroll10kFrameMaxMs.ratio': ratio(Math.max(...frames), scroll.cal),
    'webview.scroll10kFrameMaxMs.goal': frameGoal(scroll.cal),
    // Each pass's own worst frame over its calibration (no goal: see SCROLL_PASSES).
    'webview.scroll10kFrameMaxRatioEachPass': passMax.map((x) => round(x, 3)).join(' / '),
    // The next 960 frames of the same scroll (24,000 to 120,000 px up).
    'webview.scroll10kFarFrameP95Ms': round(percentile(farFrames, 0.95)),
    'webview.scroll10kFarFrameP95Ms.ratio': ratio(percentile(farFrames, 0.95), far.cal),
    'webview.scroll10kFarFrameP95Ms.goal': 'ratio <= 0.4 (0.27 when set)',
    'webview.history100kFirstPaintMs': round(open.ms),
    'webview.history100kFirstPaintMs.ratio': ratio(openCpu, hist.cal),
    'webview.history100kFirstPaintMs.goal': 'ratio <= 1.1 (0.78 when set)',
    'webview.history100kReattachMs': round(reattach.ms),
    'webview.history100kReattachMs.ratio': ratio(reattachCpu, hist.cal),
    'webview.history100kReattachMs.goal': 'ratio <= 0.65 (0.44 when set)',
    'webview.history100kHostReplayMs': round(history.replayMs),
    'webview.idleCpuMsPer10s': round(idleCpu, 2),
    'webview.idleCpuMsPer10sEachWindow': idleEach.map((x) => round(x, 2)).join(' '),
    'webview.idleCpuMsPer10s.goal': '<= 5',
    'webview.idleRendererCpuMsPer10s': round(idleRenderer, 2),
    'webview.idleStaticPageCpuMsPer10s': round(idleFloor, 2),
    ...paced.figures,
  };
  console.log(
    `calibration: best ${round(cal, 2)} ms CPU of ${calibration.map((x) => round(x)).join('/')} ms; around each figure (median): snapshot ${round(snap.cal)}, scroll ${round(scroll.cal)}, far ${round(far.cal)}, history ${round(hist.cal)}, apply ${round(applied.cal)}, paced ${round(paced.cal)}`,
  );
  console.log(
    `snapshot: ${snapshot.built} of ${ENTRIES} entries built on first screen (clone/handler/frame ${snapshot.parts.map((x) => round(x)).join('/')} ms wall, ${round(snapshotCpu)} ms CPU); full build ${round(fullBuild.ms)} ms (scaled from ${FULL_BUILD_ENTRIES})`,
  );
  console.log(
    `idle: ${round(idleRenderer, 2)} ms CPU per 10 s (a static page ${round(idleFloor, 2)} ms), medians of ${IDLE_WINDOWS} windows (${idleWindows.map((w) => `${round(w.renderer, 2)} less ${round(w.floor, 2)}`).join(', ')}); over all of them by thread ${JSON.stringify(idleThreads)}`,
  );
  console.log(`stream: ${s.frames} frames, ${s.textBytes} text bytes, ${s.postedBytes} bytes posted, ${round(applyCpu)} ms CPU, final text ok: ${s.ok}`);
  console.log(
    `scroll: ${frames.length} frames; frame CPU p50 ${round(percentile(frames, 0.5))} ms; the next ${farFrames.length} frames p50 ${round(percentile(farFrames, 0.5))} ms, max ${round(Math.max(...farFrames))} ms`,
  );
  console.log(
    `history: ${history.count} entries (store ${round(history.buildMs)} ms, projected for the webview in ${round(history.projectMs)} ms); first paint ${round(open.ms)} ms (clone/handler/frame ${open.parts.map((x) => round(x)).join('/')} ms, ${round(openCpu)} ms CPU) with ${open.built} built; reattach: ${history.replayOps.length} replay ops, ${reattach.count} entries, ${reattach.unique} unique keys, newest shown: ${reattach.newestShown}, clone/handler/frame ${reattach.parts.map((x) => round(x)).join('/')} ms, ${round(reattachCpu)} ms CPU`,
  );
  console.log(paced.line);
  if (!s.ok) throw new Error('streamed text did not arrive intact');
  paced.check();
  if (!open.newestShown || !reattach.newestShown) throw new Error('the newest entries were not painted');
  if (reattach.count !== history.count || reattach.unique !== reattach.count)
    throw new Error(`reattach left ${reattach.count} entries (${reattach.unique} unique), expected ${history.count}`);
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  await server.close();
}

/**
 * The paced stream (webview.paced60s*): the renderer on a fresh panel, drawing the posts the shipped host
 * pipeline makes of the answer (bench/lib/pacedPosts.ts), and at the same time the host side in a process
 * of its own (fixtures/pacedHost.ts, the same pipeline in real time over pipes from fixtures/pacedAgent.mjs).
 * The calibration is taken in another fresh panel around the stream: in the streaming panel itself, after
 * the answer, the 240 KB transcript made each calibration round two to three times costlier, which let
 * about twice the intended cost through the ratio's goal. Returns its figures, a line for the log, and a
 * check that the answer arrived intact on both sides.
 */
async function pacedStream() {
  // A long answer at a person's reading pace.
  const markdown = answerMarkdown(PACED_SECONDS * PACED_PER_SECOND * PIECE);
  const { first, timed } = pacedPosts(markdown, PIECE, PACED_PER_SECOND);
  const pacedPanel = await newPanel();
  const calPanel = await newPanel();
  const host = pacedHost(markdown.length);
  const pacedRun = await traced(calPanel.page, () => pacedPanel.page.evaluate((o) => window.__bench.timed(o), { name: 'paced', first, timed, markdown }));
  await pacedPanel.close();
  await calPanel.close();
  const h = await host;
  const run = pacedRun.result;
  const pacedStart = pacedRun.trace.mark('paced-start');
  const pacedEnd = pacedRun.trace.mark('paced-end');
  const seconds = Math.floor((pacedEnd.ts - pacedStart.ts) / 1e6);
  const rendererCpu = (fromS, toS) => pacedRun.trace.processCpu(pacedStart.pid, pacedStart.ts + fromS * 1e6, pacedStart.ts + toS * 1e6);
  const hostCpu = (fromS, toS) => (h.bySecondCpu[toS - 1] ?? h.cpuMs) - (fromS > 0 ? (h.bySecondCpu[fromS - 1] ?? 0) : 0);
  // The answer's KB streamed in a stretch: the agent's pace (the renderer's posts trail it by < 0.1 s).
  const kb = (fromS, toS) => (Math.min(markdown.length, toS * PACED_PER_SECOND * PIECE) - Math.min(markdown.length, fromS * PACED_PER_SECOND * PIECE)) / 1024;
  const lastS = Math.min(seconds, h.bySecondCpu.length);
  const both = (fromS, toS) => rendererCpu(fromS, toS) + hostCpu(fromS, toS);
  const lastOverFirst = (cpu) => lastOverFirstPerKb({ seconds: lastS, cpu, kb });
  const flat = lastOverFirst(both);
  const rendererShare = pacedRun.trace.processCpu(pacedStart.pid, pacedStart.ts, pacedEnd.ts) / ((pacedEnd.ts - pacedStart.ts) / 1000);
  const hostShare = h.cpuMs / h.ms;
  const share = rendererShare + hostShare;
  const pacedLongest = pacedRun.trace.longestTask(pacedStart.pid, pacedStart.ts, pacedEnd.ts);
  return {
    figures: {
      'webview.paced60sWithHostCpuShare': round(share, 3),
      // Per second of the stream, in calibrations: see PACED_GOAL_MS.
      'webview.paced60sWithHostCpuShare.ratio': ratio(share * 1000, pacedRun.cal),
      'webview.paced60sWithHostCpuShare.goal': `ratio <= ${round(PACED_GOAL_MS / pacedRun.cal, 3)} (0.20 of a core: ${PACED_GOAL_MS} ms per s / ${round(pacedRun.cal)} ms, this run's calibration around the stream; see PACED_GOAL_MS)`,
      'webview.paced60sCpuShare': round(rendererShare, 3),
      'webview.paced60sCpuShare.ratio': ratio(rendererShare * 1000, pacedRun.cal),
      'webview.paced60sHostCpuShare': round(hostShare, 3),
      'webview.paced60sHostCpuShare.ratio': ratio(hostShare * 1000, pacedRun.cal),
      'webview.paced60sLastOverFirstPerKb': round(flat.ratio, 3),
      'webview.paced60sLastOverFirstPerKb.goal': '<= 1.1',
      'webview.paced60sRendererLastOverFirstPerKb': round(lastOverFirst(rendererCpu).ratio, 3),
      'webview.paced60sHostLastOverFirstPerKb': round(lastOverFirst(hostCpu).ratio, 3),
      'webview.paced60sLongestTaskMs': round(pacedLongest),
      'webview.paced60sLongestTaskMs.ratio': ratio(pacedLongest, pacedRun.cal),
    },
    cal: pacedRun.cal,
    line: `paced: ${round(markdown.length / 1024)} KB in ${round(run.ms / 1000)} s (${timed.length} posts), text ok: ${run.ok} (host ${h.textLength === markdown.length}); CPU share renderer ${round(rendererShare, 3)} + host ${round(hostShare, 3)} (${round(h.cpuMs)} ms over ${round(h.ms / 1000)} s); CPU per KB (median of its seconds) seconds 1-${1 + flat.window} ${round(flat.first, 2)} ms, last ${flat.window} s ${round(flat.last, 2)} ms; longest task ${round(pacedLongest)} ms`,
    check() {
      if (!run.ok) throw new Error('the paced answer did not arrive intact');
      if (h.textLength !== markdown.length) throw new Error(`the host's store holds ${h.textLength} of the answer's ${markdown.length} characters`);
    },
  };
}

/** The host side of the paced stream (fixtures/pacedHost.ts) in a process of its own: its JSON result. */
function pacedHost(bytes) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fixtures/pacedHost.ts'], {
    env: { ...process.env, PACED_BYTES: String(bytes), PACED_PIECE: String(PIECE), PACED_PER_SECOND: String(PACED_PER_SECOND) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the paced host exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    }),
  );
}

/** Frame i's lowest CPU time over the passes (each a list of per-frame CPU ms). */
function bestByFrame(passes) {
  const n = Math.min(...passes.map((p) => p.length));
  return Array.from({ length: n }, (_, i) => Math.min(...passes.map((p) => p[i])));
}
