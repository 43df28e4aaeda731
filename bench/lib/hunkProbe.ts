// Bundled into the bench page (bench/hunks.bench.mjs): what the editor computes to draw an agent's change
// hunk by hunk (placeHunks + hunkMarks, src/common/changes), run between performance marks so its CPU
// time is read from the trace beside the calibration.
import { placeHunks, splitLines } from '../../src/common/changes/hunks';
import { hunkMarks } from '../../src/common/changes/hunkMarks';

interface Texts {
  readonly older: string;
  readonly agent: string;
  readonly now: string;
}

function run(name: string, t: Texts): { hunks: number; conflicts: number } {
  performance.mark(`${name}-start`);
  const placed = placeHunks(t.older, t.agent, t.now);
  const marks = hunkMarks(placed, splitLines(t.now).length);
  performance.mark(`${name}-end`);
  return { hunks: marks.length, conflicts: marks.filter((m) => m.conflict).length };
}

(globalThis as unknown as { __hunks: { run: typeof run } }).__hunks = { run };
