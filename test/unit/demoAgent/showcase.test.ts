// The demo agent's showcase commands (issue 38 item 11): /ask is a question form the client's form model
// accepts, answered back in the chat; /long a long streamed answer; both listed in the commands.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionNotification } from '../../../src/common/protocol/requests';
import type { ElicitationAsk } from '../../../src/node/acp/handlers';
import { policyPermission } from '../../../src/node/acp/nodeHandlers';
import { CODE_ANSWER, COMMANDS } from '../../../src/node/demoAgent/content';
import { longAnswer } from '../../../src/node/demoAgent/showcase';
import { demoPair } from '../helpers/demoPair';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-showcase-'));
after(() => rmSync(ws, { recursive: true, force: true }));

function text(updates: readonly SessionNotification[]): string {
  return updates.map((u) => (u.update.sessionUpdate === 'agent_message_chunk' ? ((u.update['content'] as { text?: string }).text ?? '') : '')).join('');
}

async function run(prompt: string, forms: boolean, answer: 'accept' | 'decline' = 'accept') {
  const asks: ElicitationAsk[] = [];
  const pair = demoPair({
    client: {
      handlers: {
        requestPermission: policyPermission('all'),
        ...(forms
          ? {
              elicitation: {
                modes: { form: true, url: false },
                create: async (ask: ElicitationAsk) => (
                  asks.push(ask),
                  answer === 'accept' ? { action: 'accept' as const, content: { name: 'demo', language: 'Rust', tests: false, files: 2 } } : { action: 'decline' as const }
                ),
              },
            }
          : {}),
      },
    },
  });
  const updates: SessionNotification[] = [];
  pair.client.onSessionUpdate((n) => updates.push(n));
  await pair.client.initialize();
  const { sessionId } = await pair.client.newSession({ cwd: ws, mcpServers: [] });
  const r = await pair.client.prompt(sessionId, [{ type: 'text', text: prompt }]);
  pair.dispose();
  return { r, asks, updates, text: text(updates) };
}

describe('demo agent: showcase commands', () => {
  it('/ask shows a form of every field kind (the client parses it) and says the answers', async () => {
    const a = await run('/ask', true);
    assert.equal(a.r.stopReason, 'end_turn');
    assert.equal(a.asks.length, 1);
    assert.deepEqual(
      a.asks[0]?.form?.fields.map((f) => f.kind),
      ['text', 'choice', 'boolean', 'integer'],
    );
    assert.match(a.text, /language: `"Rust"`/);
    assert.match((await run('/ask', true, 'decline')).text, /You chose \*\*decline\*\*/);
  });

  it('/ask to a client without forms says so instead', async () => {
    const a = await run('/ask', false);
    assert.equal(a.asks.length, 0);
    assert.match(a.text, /shows no question forms/);
  });

  it('/long streams a long answer in many chunks', async () => {
    const a = await run('/long', false);
    assert.equal(a.text, longAnswer());
    assert.ok(a.text.length > 6000);
    assert.ok(a.updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk').length > 100);
  });

  it('/code answers with a code block that names its file', async () => {
    const a = await run('/code', false);
    assert.equal(a.text, CODE_ANSWER);
    assert.match(a.text, /^```ts demo-code\.ts$/m);
  });

  it('the commands are advertised', () => {
    for (const name of ['ask', 'long', 'subagent', 'compact', 'code'])
      assert.ok(
        COMMANDS.some((c) => c.name === name),
        name,
      );
  });
});
