// Both demo-agent modes end to end through the real client and store: with fork at a message (v2 draft:
// the prompt response names the user message) the plan forks there and the store's fork holds only the
// history before it; without it the plan is a new session carrying the transcript.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MessageStore } from '../../../src/common/store';
import { branchPoint, planBranch } from '../../../src/common/rewind/branchPlan';
import { forkAtMessageParams } from '../../../src/common/rewind/forkAtMessage';
import { AcpRequestError } from '../../../src/node/acp/errors';
import { demoPair } from '../helpers/demoPair';

const ws = mkdtempSync(path.join(tmpdir(), 'fork-at-'));
after(() => rmSync(ws, { recursive: true, force: true }));

async function twoTurns(forkAtMessage: boolean) {
  const store = new MessageStore();
  const pair = demoPair({ agent: { forkAtMessage }, client: { protocolVersion: 2, tap: (dir, msg) => store.ingest(dir, msg) } });
  const init = await pair.client.initialize();
  const { sessionId } = await pair.client.newSession({ cwd: ws, mcpServers: [] });
  await pair.client.prompt(sessionId, [{ type: 'text', text: 'first question' }]);
  await pair.client.prompt(sessionId, [{ type: 'text', text: 'second question' }]);
  const entries = store.session(sessionId)?.entries ?? [];
  const second = entries.filter((e) => e.kind === 'user_message')[1];
  assert.ok(second);
  return { ...pair, store, init, sessionId, entries, second };
}

describe('fork at a message (demo agent, v2)', () => {
  it('advertised: the plan forks at the message and the fork holds the history before it', async () => {
    const c = await twoTurns(true);
    const point = branchPoint(c.entries, c.second.key);
    assert.ok(point.ok);
    const plan = planBranch(c.init.agentCapabilities, c.entries, point.index, 'Demo');
    assert.ok(plan.kind === 'forkAtMessage', JSON.stringify(plan));
    const fork = await c.client.forkSession({ sessionId: c.sessionId, cwd: ws, mcpServers: [], ...forkAtMessageParams(plan.messageId) });
    const forked = c.store.session(fork.sessionId)?.entries ?? [];
    assert.equal(forked.length, point.index, 'everything before the message, nothing from it on');
    assert.deepEqual(
      forked.map((e) => e.kind),
      c.entries.slice(0, point.index).map((e) => e.kind),
    );
    assert.ok(forked.every((e) => e.provenance === 'fork'));
    await assert.rejects(
      c.client.forkSession({ sessionId: c.sessionId, cwd: ws, mcpServers: [], ...forkAtMessageParams('user-nope') }),
      (e: unknown) => e instanceof AcpRequestError && e.code === -32602,
    );
    c.dispose();
  });

  it('not advertised: the plan is a new session carrying the transcript before the message', async () => {
    const c = await twoTurns(false);
    const point = branchPoint(c.entries, c.second.key);
    assert.ok(point.ok);
    const plan = planBranch(c.init.agentCapabilities, c.entries, point.index, 'Demo');
    assert.ok(plan.kind === 'newSession' && plan.carried && plan.carry === 'embedded', JSON.stringify(plan));
    assert.match(plan.carried.markdown, /first question/);
    assert.doesNotMatch(plan.carried.markdown, /second question/);
    c.dispose();
  });
});
