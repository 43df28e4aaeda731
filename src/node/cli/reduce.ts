/**
 * `reduce [--state FILE] CAPTURE.jsonl`: feeds a capture through the message store (the same code the
 * extension runs) and prints sessions and diagnostics as JSON (shared/conformance/README.md). With
 * `--state`, the store's complete state is loaded from FILE when it exists and written back after.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { MessageStore, toReduceOutput } from '../../common/store';
import { parse } from './args';
import { terminalSafe, terminalSafeJson } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';

export const usage = 'reduce [--state FILE] CAPTURE.jsonl   reduce a {dir,msg} capture to sessions and diagnostics (JSON)';

export async function main(args: string[]): Promise<number> {
  const r = parse(args, { state: { type: 'string' } }, true);
  if (typeof r === 'string') return fail(r);
  const state = r.values.state;
  const [capture, extra] = r.positionals;
  if (extra !== undefined) return fail(`unexpected argument '${extra}'`);
  if (capture === undefined) return fail('missing CAPTURE.jsonl');

  let store = new MessageStore();
  if (state !== undefined && existsSync(state)) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(state, 'utf8'));
    } catch (err) {
      return fail(`cannot read state file ${state}: ${errorText(err)}`);
    }
    const restored = MessageStore.fromJSON(data);
    store = restored.store;
    for (const d of restored.diagnostics) process.stderr.write(terminalSafe(`reduce: ${state}: ${d.message}\n`));
  }
  let text: string;
  try {
    text = readFileSync(capture, 'utf8');
  } catch (err) {
    return fail(`cannot read ${capture}: ${errorText(err)}`);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line.trim() === '') continue;
    store.ingestLine(line, i + 1);
  }
  if (state !== undefined) {
    // Write-then-rename so an interrupted run never leaves a half-written state file.
    const tmp = `${state}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(store.toJSON()));
    renameSync(tmp, state);
  }
  // The capture holds agent text; JSON leaves C1 controls and bidi marks raw, so escape them too.
  process.stdout.write(terminalSafeJson(JSON.stringify(toReduceOutput(store))) + '\n');
  return 0;
}

function fail(message: string): number {
  process.stderr.write(terminalSafe(`reduce: ${message}\n${usage}\n`));
  return 2;
}
