// Review in the editor: the hunks of an agent's change to a 5,000-line file with 200 hunks, placed on the
// file and turned into what the editor draws (placeHunks + hunkMarks, src/common/changes), the work of one
// redraw after the turn ends. Run in headless Chromium's V8 (the extension host's engine) between
// performance marks, traced with the webview benches' calibration around it (bench/lib/traced.mjs):
//   hunks.place5k200Ms        the file as the agent left it (the redraw when the turn ends)
//   hunks.place5k200EditedMs  the same after the user edited 20 places of the file (the second diff, agent's
//                             version -> now, that keeps the user's text, is in it)
// `.ratio`: CPU over the calibration measured around it in the same round, the median of ROUNDS rounds with
// its spread (bench/lib/rounds.ts); goal: within one 60 Hz frame, 16.7 ms over the
// median of the calibrations measured in this run (frameGoal, bench/lib/traced.mjs).
// VS Code's own drawing of the decorations is not in the figure. Prints one JSON object as the last line.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { launch, loadProbe } from '../test/browser/browser.mjs';
import { frameGoal, round, tracer } from './lib/traced.mjs';
import { defineHelpers } from './lib/webviewPage.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LINES = 5_000;
const HUNKS = 200;
const ROUNDS = Number(process.env.BENCH_HUNKS_ROUNDS ?? 5);
const { median, ratioFigure } = await tsImport('./lib/rounds.ts', import.meta.url);

/** A 5,000-line file, the agent's version with 200 hunks (replaced, inserted and removed lines in turn), and the user's edit of it. */
function texts() {
  const older = Array.from({ length: LINES }, (_, i) => `    const value${i} = compute(${i}, "line ${i} of the file");\n`);
  const agent = [];
  const step = LINES / HUNKS;
  older.forEach((l, i) => {
    const h = i / step;
    if (i % step !== 7) return void agent.push(l);
    if (h % 3 === 0) agent.push(l.replace('compute', 'computeFaster'), `    // changed by the agent (${i})\n`);
    else if (h % 3 === 1) agent.push(l, `    log(value${i});\n`, `    check(value${i});\n`);
    // h % 3 === 2: the line removed
  });
  const now = agent.map((l, i) => (i % 250 === 100 ? `${l}    // the user's note (${i})\n` : l));
  return { older: older.join(''), agent: agent.join(''), now: now.join('') };
}

const browser = await launch();
const { traced } = tracer(browser);
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.evaluate(defineHelpers, 0);
  await loadProbe(page, path.join(root, 'bench/lib/hunkProbe.ts'));
  const t = texts();
  const cost = { clean: { cpu: [], cal: [] }, edited: { cpu: [], cal: [] } };
  for (let r = 0; r < ROUNDS; r++) {
    const order = [
      ['clean', t.agent],
      ['edited', t.now],
    ];
    for (const [name, now] of r % 2 ? order.reverse() : order) {
      // A first run compiles the code: the editor has run it by the time a turn ends.
      await page.evaluate(({ older, agent, now: n }) => window.__hunks.run('warm', { older, agent, now: n }), { older: t.older, agent: t.agent, now });
      const run = await traced(page, () =>
        page.evaluate(({ name: k, older, agent, now: n }) => window.__hunks.run(k, { older, agent, now: n }), { name, older: t.older, agent: t.agent, now }),
      );
      if (run.result.hunks !== HUNKS) throw new Error(`${run.result.hunks} hunks placed, not ${HUNKS}`);
      const a = run.trace.mark(`${name}-start`);
      const cpu = run.trace.mainCpu(a.pid, a.ts, run.trace.mark(`${name}-end`).ts);
      console.log(`round ${r} ${name}: ${round(cpu)} ms, calibration ${round(run.cal)} ms, ${run.result.conflicts} hunks in conflict`);
      cost[name].cpu.push(cpu);
      cost[name].cal.push(run.cal);
    }
  }
  console.log(
    JSON.stringify({
      'hunks.place5k200Ms': round(median(cost.clean.cpu)),
      ...ratioFigure('hunks.place5k200Ms.ratio', cost.clean.cpu, cost.clean.cal),
      'hunks.place5k200Ms.goal': frameGoal(median(cost.clean.cal)),
      'hunks.place5k200EditedMs': round(median(cost.edited.cpu)),
      ...ratioFigure('hunks.place5k200EditedMs.ratio', cost.edited.cpu, cost.edited.cal),
      'hunks.place5k200EditedMs.goal': frameGoal(median(cost.edited.cal)),
    }),
  );
} finally {
  await browser.close();
}
process.exit(0);
