// Writes docs/BENCHMARKS.md from bench-results.json (written by `npm run bench`, which runs this at its end).
//   node scripts/bench-doc.mjs [RESULTS.json] [--loaded LOADED.json] [--soak SOAK.json] [--out FILE]
// Every figure comes from the results file: the document holds no figure of its own, only the machine and
// date of the run, one table per area with each figure's goal (`<figure>.goal`), in-run ratio
// (`<figure>.ratio`), spread over its interleaved rounds (`<figure>.spread`), and whether the goal is met.
// With the results of a run under a deliberate CPU load (`npm run bench -- --load`, bench-results-loaded.json
// beside the quiet results, or --loaded), each figure also shows its loaded value, and each ratio how far it
// moved; a ratio that moved more than 20 % is called out at the top. The whole day of `npm run soak`
// (soak-results.json beside the results, or --soak) replaces the short day's `soak.*` figures of the bench run.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUFFIXES = ['goal', 'ratio', 'spread'];
/** How far a ratio may move between the quiet and the loaded run before the document calls it out. */
const MOVED_CALL_OUT = 0.2;

/**
 * `< 200`, `<= 3`, `>= 0.5 (stretch 0.7)`: whether `value` meets the goal, or null when it cannot be judged.
 * A goal that starts with `ratio` (`ratio <= 1.3`) is on the figure's in-run ratio, passed as `ratio`.
 */
export function meets(value, goal, ratio) {
  const onRatio = /^\s*ratio\b/.exec(String(goal));
  if (onRatio) {
    value = ratio;
    goal = String(goal).slice(onRatio[0].length);
  }
  const m = /^\s*(<=|>=|<|>|==?)\s*(-?\d+(?:\.\d+)?)/.exec(String(goal));
  if (!m || typeof value !== 'number') return null;
  const bound = Number(m[2]);
  switch (m[1]) {
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    default:
      return value === bound;
  }
}

function cell(v) {
  if (v === undefined || v === null) return '—';
  const s =
    typeof v === 'object'
      ? Object.entries(v)
          .map(([k, x]) => `${k}: ${typeof x === 'object' ? JSON.stringify(x) : x}`)
          .join(', ')
      : String(v);
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function machineLines(machine = {}) {
  const lines = [];
  if (machine.date) lines.push(`- Run: ${machine.date}`);
  const cpu = [machine.cpus && `${machine.cpus} CPUs`, machine.cpuModel].filter(Boolean).join(', ');
  if (cpu) lines.push(`- Machine: ${cpu}${machine.platform ? ` (${machine.platform})` : ''}`);
  if (Array.isArray(machine.loadavg)) lines.push(`- Load average at the start (1, 5, 15 min): ${machine.loadavg.join(', ')}`);
  if (machine.node) lines.push(`- Node ${machine.node}`);
  if (machine.seconds)
    lines.push(
      `- Seconds per benchmark: ${Object.entries(machine.seconds)
        .map(([b, s]) => `${b.replace(/^bench\//, '')} ${s}`)
        .join(', ')}`,
    );
  return lines;
}

/**
 * The number a figure's quiet/loaded comparison is on, or undefined when the figure is no ratio: its in-run
 * ratio (`.ratio`) when it has one; else the figure itself when it is a ratio (a spread over rounds, or a name
 * that says so: `…Over…`, `…Ratio…`).
 */
function comparable(figures, name) {
  const ratio = figures[`${name}.ratio`];
  if (typeof ratio === 'number') return ratio;
  const v = figures[name];
  return typeof v === 'number' && (`${name}.spread` in figures || /Over[A-Z]|[Rr]atio/.test(name)) ? v : undefined;
}

/** The loaded figure relative to the quiet one (0.25: 25 % higher), or undefined when either is missing. */
export function moved(quiet, loaded, name) {
  const a = comparable(quiet, name);
  const b = loaded ? comparable(loaded, name) : undefined;
  return a === undefined || b === undefined || a === 0 ? undefined : b / a - 1;
}

function percent(x) {
  const s = `${x >= 0 ? '+' : '−'}${Math.abs(Math.round(x * 100))} %`;
  return Math.abs(x) > MOVED_CALL_OUT ? `**${s}**` : s;
}

/**
 * The Markdown document for one results object (as bench-results.json holds it), and optionally the
 * results of the same benchmarks under a deliberate CPU load (bench-results-loaded.json).
 */
export function benchDoc(results, loaded, soak) {
  const { machine, benchmarks, ...figures } = withSoak(results, soak);
  const names = Object.keys(figures).filter((k) => !SUFFIXES.some((s) => k.endsWith(`.${s}`) && k.slice(0, -s.length - 1) in figures));
  const groups = new Map();
  for (const name of names) {
    const area = name.split('.')[0];
    groups.set(area, [...(groups.get(area) ?? []), name]);
  }
  const tables = [];
  const calledOut = [];
  let met = 0;
  let judged = 0;
  for (const [area, list] of groups) {
    tables.push(
      '',
      `## ${area}`,
      '',
      `| figure | value | ratio | goal | met | spread |${loaded ? ' loaded | moved |' : ''}`,
      `|---|---|---|---|---|---|${loaded ? '---|---|' : ''}`,
    );
    for (const name of list) {
      const value = figures[name];
      const goal = figures[`${name}.goal`];
      const verdict = goal === undefined ? null : meets(value, goal, figures[`${name}.ratio`]);
      if (verdict !== null) judged++;
      if (verdict === true) met++;
      const mark = goal === undefined ? '' : verdict === null ? '?' : verdict ? 'yes' : '**no**';
      let row = `| \`${name}\` | ${cell(value)} | ${cell(figures[`${name}.ratio`])} | ${goal === undefined ? '' : cell(goal)} | ${mark} | ${cell(figures[`${name}.spread`])} |`;
      if (loaded) {
        const lv = loaded[name];
        const lr = loaded[`${name}.ratio`];
        // With the full day in place, a soak row's loaded figure is the loaded run's short day: shown, not compared.
        const m = soak && name.startsWith('soak.') ? undefined : moved(figures, loaded, name);
        if (m !== undefined && Math.abs(m) > MOVED_CALL_OUT) calledOut.push(`\`${name}\` (${percent(m).replace(/\*/g, '')})`);
        row += ` ${cell(lv)}${lr === undefined ? '' : ` (ratio ${cell(lr)})`} | ${m === undefined ? '' : percent(m)} |`;
      }
      tables.push(row);
    }
  }
  const loadedLines = [];
  if (loaded) {
    const lm = loaded.machine ?? {};
    loadedLines.push(
      `- Loaded run (\`npm run bench -- --load\`): ${[lm.date, lm.cpuLoad].filter(Boolean).join(', ')}${Array.isArray(lm.loadavg) ? `; load average at its start ${lm.loadavg.join(', ')}` : ''}`,
    );
    loadedLines.push(`- Ratios that moved more than ${MOVED_CALL_OUT * 100} % under load: ${calledOut.length ? calledOut.join(', ') : 'none'}`);
  }
  const out = [
    '# Benchmarks',
    '',
    '<!-- Generated by `node scripts/bench-doc.mjs` from bench-results.json (`npm run bench`); do not edit. -->',
    '',
    ...machineLines(machine),
    ...(Array.isArray(benchmarks) ? [`- Benchmarks in this run: ${benchmarks.map((b) => `\`${b}\``).join(', ')}`] : []),
    `- Goals met: ${met} of ${judged}`,
    ...loadedLines,
    '',
    'Each figure is compared with a baseline measured in the same run where it has one (its name or its',
    '`ratio` column says against what), so ratios are the figures to compare between machines; absolute',
    'times move with the machine and its load. A goal that starts with `ratio` is on the ratio. The webview',
    "figures' ratios are CPU time of the renderer's main thread (from a Chromium trace) over a fixed DOM",
    'workload run in the same Chromium (`webview.calibrationCpuMs`). A ratio whose baseline runs apart from',
    'its figure is measured in interleaved rounds (baseline, figure, baseline, …): its value is the median of',
    'the per-round ratios and `spread` their middle half and whole range. A frame goal (one 60 Hz frame) is',
    '16.7 ms over the calibration measured around its figure in the same run (`ratio <= 16.7 / cal`, shown in',
    "the goal): met exactly when the frame took at most 16.7 ms of CPU, whatever the run's calibration.",
    ...(loaded
      ? ['`loaded` is the same figure from a run under a deliberate CPU load (`npm run bench -- --load`: busy', 'processes, a core each), `moved` how far a ratio moved there.']
      : []),
    'How each figure is measured is described in the benchmark that writes it (`bench/`).',
    ...(names.some((n) => n.startsWith('soak.')) ? soakLines(figures, loaded !== undefined && soak !== undefined) : []),
    ...tables,
  ];
  return out.join('\n') + '\n';
}

/** The bench run's figures with the full soak's (`npm run soak`) in place of its short day's, when there is one. */
function withSoak(results, soak) {
  if (!soak) return results;
  const { machine: _m, ...day } = soak;
  const kept = Object.fromEntries(Object.entries(results).filter(([k]) => !k.startsWith('soak.')));
  return { ...kept, ...day };
}

/** How to read the soak's table (`shortLoaded`: its `loaded` column is the loaded run's short day). */
function soakLines(figures, shortLoaded) {
  return [
    '',
    `The soak (\`bench/soak.bench.mjs\`; this is its ${figures['soak.mode'] === 'full' ? 'full day, `npm run soak`' : 'short day, run by `npm run bench`'}: ${cell(figures['soak.day'])})`,
    'is a scripted day in code-server against the demo agent at full speed. Each hour-equivalent does the same',
    'work; `…ByHour` lists a figure hour by hour. Memory is after a full garbage collection: the extension',
    "host's JS heap, and the renderer's (the workbench and the chat webviews share one renderer there). A",
    'growth near 1 with a flat `…ByHour` row is what flat memory looks like; a row that climbs hour after hour',
    'is a leak even when the last/first ratio is within its goal. Window reloads come after the first hours, so',
    "the last hours run in one extension host. CPU per KB is the extension host's CPU time over the KB of",
    "answer text the hour's turns showed. Idle CPU is the extension host's with no chat open, at start-up",
    'and at the end. At each end the host is measured window by window beside the host of a second window',
    'opened then (`…BesideSecondStart`, `…BesideSecondEnd`: the same load on both), and `…EndOverStart` is the',
    "end's ratio over the start's, so the day's own cost is what is left. Processes and open files left are",
    'counted beyond what start-up had. The heap snapshots',
    '(`test-results/soak/probe/`) open in Chrome DevTools (Memory tab, Load, then the Comparison view), or',
    '`node scripts/heap-diff.mjs FIRST LAST` lists what grew.',
    ...(shortLoaded ? ["Its `loaded` column is the loaded run's own short day, another day than the full one: not compared."] : []),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outFile = outAt >= 0 ? path.resolve(args[outAt + 1] ?? '') : path.join(root, 'docs/BENCHMARKS.md');
  const loadedAt = args.indexOf('--loaded');
  // The one argument that is neither an option nor an option's value (an option not given has none).
  const values = new Set(
    ['--out', '--loaded', '--soak']
      .map((o) => args.indexOf(o))
      .filter((i) => i >= 0)
      .map((i) => i + 1),
  );
  const input = args.find((a, i) => !a.startsWith('--') && !values.has(i)) ?? path.join(root, 'bench-results.json');
  const loadedFile = loadedAt >= 0 ? path.resolve(args[loadedAt + 1] ?? '') : path.join(path.dirname(input), 'bench-results-loaded.json');
  const loaded = existsSync(loadedFile) ? JSON.parse(readFileSync(loadedFile, 'utf8')) : undefined;
  const soakAt = args.indexOf('--soak');
  const soakFile = soakAt >= 0 ? path.resolve(args[soakAt + 1] ?? '') : path.join(path.dirname(input), 'soak-results.json');
  const soak = existsSync(soakFile) ? JSON.parse(readFileSync(soakFile, 'utf8')) : undefined;
  const doc = benchDoc(JSON.parse(readFileSync(input, 'utf8')), loaded, soak);
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, doc);
  const from = [input, ...(loaded ? [loadedFile] : []), ...(soak ? [soakFile] : [])].map((f) => path.relative(process.cwd(), f));
  console.log(`bench-doc: ${path.relative(process.cwd(), outFile)} from ${from.join(', ')}`);
}
