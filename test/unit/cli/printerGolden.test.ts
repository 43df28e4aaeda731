// `cli run`'s printed transcript, byte for byte, for every recorded transcript (test/fixtures/transcripts: the
// copies of ../shared/agents/transcripts and a few more) and every conformance vector's input: a change to
// how the printer reads the wire shows here as a changed golden file. Regenerate with
// `ACP_CHAT_GOLDEN=write node --import tsx --test test/unit/cli/printerGolden.test.ts`, then read the diff.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { printCapture } from './printerFeed';

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

function printed(file: string): string {
  const { out, err } = printCapture(file);
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
  // `cli run` joins a read's text chunks into one store step: what it prints must not change.
  it('joining text chunks (as cli run feeds the store) prints every golden the same', () => {
    for (const { name, file } of inputs) {
      const { out, err } = printCapture(file, true);
      assert.equal(`${out}--- stderr ---\n${err}`, printed(file), name);
    }
  });
});
