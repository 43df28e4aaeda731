// The agent's pending permission requests have one owner, the PermissionBroker: whatever ends them (the
// turn's cancel, the user's late click, the handler's late answer, the connection's end), each request is
// answered on the wire exactly once, and none is left waiting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import { AcpClient } from '../../../src/node/acp/client';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { PermissionBroker } from '../../../src/common/permissionBroker';
import type { RequestPermissionResult } from '../../../src/common/protocol/requests';
import { FakeAgent, INIT_RESULT, openSession } from './fakeAgent';
import { until } from '../../helpers/until.mjs';

const options = [
  { optionId: 'y', name: 'Yes', kind: 'allow_once' },
  { optionId: 'n', name: 'No', kind: 'reject_once' },
];

/** `ruled` is decided by a "rule" that answers only when told; every other request waits on the user. */
function handlers(late: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] }): ClientHandlers {
  return {
    requestPermission: async (p, signal, askUser) => {
      late.signals.push(signal);
      if (p.toolCall.toolCallId === 'ruled') return new Promise<RequestPermissionResult>((r) => (late.answer = r));
      return { outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: 't', options: p.options }) };
    },
  };
}

async function connected(broker: PermissionBroker, late: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] }) {
  const agent = new FakeAgent();
  const sent: Message[] = [];
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: handlers(late),
    permissions: broker,
    tap: (dir, msg) => dir === 'client->agent' && sent.push(msg),
  });
  const init = client.initialize();
  agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
  await init;
  await openSession(agent, client, 's1');
  return { agent, client, sent };
}

const ask = (agent: FakeAgent, id: number, toolCallId: string) =>
  agent.send({ id, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId }, options } });

/** The client's answers to request `id`, in the order they were written. */
const answersTo = (sent: Message[], id: number) => sent.filter((m) => 'id' in m && m.id === id && !('method' in m)).map((m) => ('result' in m ? m.result : m));

describe('pending permission requests', () => {
  it("a cancel answers each one once; the user's and the handler's late answers change nothing", async () => {
    const broker = new PermissionBroker();
    const late: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] } = { signals: [] };
    const { agent, client, sent } = await connected(broker, late);
    ask(agent, 7, 'asked');
    ask(agent, 8, 'ruled');
    await until(() => broker.pending().length === 1 && late.answer, 'both requests to be pending');
    assert.equal(client.pendingPermissionCount('s1'), 2);
    const [card] = broker.pending();
    client.cancel('s1');
    await until(() => answersTo(sent, 7).length > 0 && answersTo(sent, 8).length > 0, 'the cancelled answers');
    // The panel's click and the rule's answer arrive after the cancel.
    assert.equal(broker.respond(card!.requestId, 'y'), false);
    late.answer?.({ outcome: { outcome: 'selected', optionId: 'y' } });
    // A later request's answer proves everything before it was written.
    agent.send({ id: 9, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'asked' }, options } });
    await until(() => broker.pending()[0], 'the next request');
    broker.respond(broker.pending()[0]!.requestId, 'n');
    await until(() => answersTo(sent, 9).length > 0, 'the answer to the next request');
    assert.deepEqual(answersTo(sent, 7), [{ outcome: { outcome: 'cancelled' } }]);
    assert.deepEqual(answersTo(sent, 8), [{ outcome: { outcome: 'cancelled' } }]);
    assert.deepEqual(answersTo(sent, 9), [{ outcome: { outcome: 'selected', optionId: 'n' } }]);
    assert.ok(
      late.signals.slice(0, 2).every((s) => s.aborted),
      'the handlers were told',
    );
    assert.equal(client.pendingPermissionCount(), 0);
    client.dispose();
  });

  it('a request that crosses the cancel on the wire is answered cancelled and never shown; the next turn asks again', async () => {
    const broker = new PermissionBroker();
    const late: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] } = { signals: [] };
    const { agent, client, sent } = await connected(broker, late);
    const turn = client.prompt('s1', [{ type: 'text', text: 'edit a file' }]);
    const promptId = (await agent.expect('session/prompt')).id;
    client.cancel('s1');
    await agent.expect('session/cancel');
    // The agent asked before it read the cancel: the user is not asked about a turn they stopped.
    ask(agent, 7, 'asked');
    await until(() => answersTo(sent, 7).length > 0, 'the answer to the crossing request');
    assert.deepEqual(answersTo(sent, 7), [{ outcome: { outcome: 'cancelled' } }]);
    assert.deepEqual([broker.pending(), late.signals.length], [[], 0], 'no card, no handler');
    agent.reply(promptId, { stopReason: 'cancelled' });
    assert.equal((await turn).stopReason, 'cancelled');
    // The turn is over: a later request waits on the user again.
    ask(agent, 8, 'asked');
    const card = await until(() => broker.pending()[0], 'the next request');
    assert.ok(broker.respond(card.requestId, 'y'));
    await until(() => answersTo(sent, 8).length > 0, 'the answer to the next request');
    assert.deepEqual(answersTo(sent, 8), [{ outcome: { outcome: 'selected', optionId: 'y' } }]);
    client.dispose();
  });

  it("the connection ending leaves none pending, and only its own: a new connection's request stays", async () => {
    const broker = new PermissionBroker();
    const lateOld: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] } = { signals: [] };
    const lateNew: { answer?: (r: RequestPermissionResult) => void; signals: AbortSignal[] } = { signals: [] };
    const old = await connected(broker, lateOld);
    const next = await connected(broker, lateNew);
    ask(old.agent, 7, 'asked');
    ask(old.agent, 8, 'ruled');
    ask(next.agent, 7, 'asked');
    await until(() => broker.pending().length === 2 && lateOld.answer, 'the requests of both connections');
    old.agent.crash();
    await until(() => old.client.isClosed, 'the old connection to close');
    assert.equal(broker.count(), 1, "the new connection's request is still pending");
    assert.ok(lateOld.signals.every((s) => s.aborted));
    const [card] = broker.pending();
    assert.ok(broker.respond(card!.requestId, 'y'));
    await until(() => answersTo(next.sent, 7).length > 0, "the new connection's answer");
    assert.deepEqual(answersTo(next.sent, 7), [{ outcome: { outcome: 'selected', optionId: 'y' } }]);
    next.client.dispose();
    assert.equal(broker.count(), 0);
  });
});
