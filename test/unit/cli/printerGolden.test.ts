// `cli run`'s printed transcript, byte for byte, for every recorded transcript (test/fixtures/transcripts: the
// copies of ../shared/agents/transcripts and a few more) and every conformance vector's input: a change to
// how the printer reads the wire shows here as a changed golden file. Regenerate with
// `ACP_CHAT_GOLDEN=write node --import tsx --test test/unit/cli/printerGolden.test.ts`, then read the diff.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TranscriptPrinter } from '../../../src/node/cli/printer';
import type { SessionNotification } from '../../../src/common/protocol/requests';

const root = path.join(__dirname, '../../');
const goldens = path.join(root, 'fixtures/printer-golden');
const inputs = [
  ...readdirSync(path.join(root, 'fixtures/transcripts'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ name: `transcript-${f.replace(/\.jsonl$/, '')}`, file: path.join(root, 'fixtures/transcripts', f) })),
  ...readdirSync(path.join(root, 'conformance/vectors'))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ name: `vector-${f.replace(/\.jsonl$/, '')}`, file: path.join(root, 'conformance/vectors', f) })),
].sort((a, b) => (a.name < b.name ? -1 : 1));

/**
 * What `cli run` prints for a capture: the agent's session/update params as the client delivers them, the
 * session it attaches to when session/new is answered, and each prompt's `[stop]`; then what it warns.
 */
function printed(file: string): string {
  let out = '';
  let err = '';
  const p = new TranscriptPrinter(
    (s) => (out += s),
    (s) => (err += s),
  );
  let newId: unknown;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { dir: string; msg?: { id?: unknown; method?: string; params?: SessionNotification; result?: { sessionId?: string; stopReason?: string } } };
    const m = r.msg;
    if (r.dir === 'client->agent' && m?.method === 'session/new') newId = m.id;
    if (r.dir !== 'agent->client' || !m) continue;
    if (m.method === 'session/update' && m.params) p.update(m.params);
    else if (m.id !== undefined && m.id === newId && typeof m.result?.sessionId === 'string') {
      p.line(`[session] ${m.result.sessionId}`);
      p.attach(m.result.sessionId);
    } else if (typeof m.result?.stopReason === 'string') p.line(`[stop] ${m.result.stopReason}`);
  }
  return `${out}--- stderr ---\n${err}`;
}

describe('cli run printer goldens', () => {
  for (const { name, file } of inputs) {
    it(name, () => {
      const got = printed(file);
      const golden = path.join(goldens, `${name}.txt`);
      if (process.env['ACP_CHAT_GOLDEN'] === 'write') writeFileSync(golden, got);
      assert.equal(got, readFileSync(golden, 'utf8'));
    });
  }
});
