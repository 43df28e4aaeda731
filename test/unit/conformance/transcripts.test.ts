// The recorded real-agent transcripts through the conformance check: what each agent is flagged for.
// The README's table ("What real agents are flagged for") states the same; change both together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCaptureText, summarize } from '../../../src/common/conformance';

/** Rule tallies per recorded agent. */
const EXPECTED: Record<string, Record<string, number>> = {
  claude: {},
  // The current Claude Code adapter gives a model response's thought and its text one messageId.
  'claude-next': { 'message-id-kind-conflict': 2 },
  'claude-next-ask': { 'message-id-kind-conflict': 2 },
  codex: {},
  'codex-next': {},
  gemini: {},
  opencode: {},
  'sdk-example-agent': {},
};

// The copies in test/fixtures, and ../shared's originals where that folder is beside the checkout.
const dirs = [path.resolve(__dirname, '../../fixtures/transcripts'), path.resolve(__dirname, '../../../../shared/agents/transcripts')].filter((d) => existsSync(d));

for (const dir of dirs) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const name = file.replace(/\.jsonl$/, '');
    test(`conformance of ${path.basename(path.dirname(dir))}/${file}`, () => {
      const r = checkCaptureText(readFileSync(path.join(dir, file), 'utf8'));
      assert.ok(r.records > 0);
      assert.deepEqual(r.skipped, []);
      assert.ok(name in EXPECTED, `no expectation for ${name}: add it here and to the README table`);
      assert.deepEqual(summarize(r.findings, r.records).rules, EXPECTED[name], JSON.stringify(r.findings.slice(0, 5)));
    });
  }
}
