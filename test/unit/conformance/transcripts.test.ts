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
  // claude-agent-acp 0.101.0 gives a model response's thought and its text one id (the model's message id).
  'claude-next': { 'message-id-kind-conflict': 77 },
  'claude-next-ask': { 'message-id-kind-conflict': 46 },
  'claude-next-compact': { 'message-id-kind-conflict': 68 },
  // Subagents: every child is announced before its traffic and messaged before it answers, so the conflicts
  // (all on the parent) are the only findings; the children's updates are neither early nor unknown.
  'claude-next-subagent': { 'message-id-kind-conflict': 53 },
  'claude-next-subagent-legacy': { 'message-id-kind-conflict': 53 },
  // The real-panel stage's own turn (test/agents/scripts/claude-subagent.json): the child asks before a shell step.
  'claude-next-subagent-permission': { 'message-id-kind-conflict': 53 },
  // The background child's completion makes the adapter run a second turn on the parent after the
  // session/prompt response, with no prompt pending: every update of it is late for a v1 client.
  // Its turn after the prompt's response (the background subagent reported back) is background work, not late.
  'claude-next-subagent-bg': { 'message-id-kind-conflict': 56 },
  codex: {},
  'codex-next': {},
  'codex-next-compact': {},
  // Recorded with the mock's additions in test/agents/codex-subagent/ (Codex's collaboration agents).
  'codex-next-subagent': {},
  'codex-next-subagent-legacy': {},
  gemini: {},
  opencode: {},
  'sdk-example-agent': {},
};

// The copies in test/fixtures, and ../shared's originals where that folder is beside the checkout.
const dirs = [path.resolve(__dirname, '../../fixtures/transcripts'), path.resolve(__dirname, '../../../../shared/agents/transcripts')].filter((d) => existsSync(d));

for (const dir of dirs) {
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
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
