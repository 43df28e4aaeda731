/**
 * `reduce [--state FILE] CAPTURE.jsonl`: feeds a capture through the message store (the same code the
 * extension runs) and prints sessions and diagnostics as JSON (shared/conformance/README.md). With
 * `--state`, the store's complete state is loaded from FILE when it exists and written back after.
 */
import { readFileSync } from 'node:fs';
import { MessageStore, toReduceOutput } from '../../common/store';
import { parse } from './args';
import { loadState, StateFileError, type LoadedState } from './stateFile';
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

  let loaded: LoadedState | undefined;
  try {
    loaded = state === undefined ? undefined : loadState(state);
  } catch (err) {
    return fail(err instanceof StateFileError ? err.message : `cannot use state file ${state}: ${errorText(err)}`);
  }
  const store = loaded?.store ?? new MessageStore();
  for (const p of loaded?.problems ?? []) process.stderr.write(terminalSafe(`reduce: ${state}: ${p}\n`));
  let text: string;
  try {
    text = readFileSync(capture, 'utf8');
  } catch (err) {
    loaded?.release();
    return fail(`cannot read ${capture}: ${errorText(err)}`);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line.trim() === '') continue;
    store.ingestLine(line, i + 1);
  }
  if (loaded) {
    const backup = loaded.save(store);
    if (backup) process.stderr.write(terminalSafe(`reduce: ${state}: parts of it could not be read; the original is kept as ${backup}\n`));
  }
  // The capture holds agent text; JSON leaves C1 controls and bidi marks raw, so escape them too.
  process.stdout.write(terminalSafeJson(JSON.stringify(toReduceOutput(store))) + '\n');
  return 0;
}

function fail(message: string): number {
  process.stderr.write(terminalSafe(`reduce: ${message}\n${usage}\n`));
  return 2;
}
