// Subagents in a chat: a child session's permission requests and questions are shown in the root session's
// chat, say which subagent asks, and are answered there (the demo agent's "subagent" step drives it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/node/chat/chatController';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import { SUBAGENT_TITLE } from '../../../src/node/demoAgent/subagent';
import type { AcpConnection } from '../../../src/node/transport/connection';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { inProcessDemoAgent, chatOptions } from './harness';
import { until } from '../helpers/until';

type Wire = { dir: string; msg: { id?: unknown; method?: unknown; params?: { sessionId?: unknown }; result?: unknown } };

function chat() {
  const wire: Wire[] = [];
  let agentSide: AcpConnection | undefined;
  let self: ChatController | undefined;
  // As the extension's handlers do (clientHandlers.ts): the card names the tool call by its entry key, a question goes to the chat's broker.
  const handlers = (): ClientHandlers => ({
    requestPermission: async (p, _signal, askUser) => ({
      outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: self?.toolCallKey(p.sessionId, p.toolCall.toolCallId) ?? null, title: p.toolCall.title ?? '', options: p.options }),
    }),
    elicitation: {
      modes: { form: true, url: false },
      create: (ask, signal) => self!.elicitations.ask(ask.params.sessionId ?? null, { entryKey: null, mode: ask.params.mode, message: ask.params.message, requestedSchema: ask.params.requestedSchema ?? null, url: null }, signal),
    },
  });
  const c = new ChatController(
    chatOptions({
      cwd: mkdtempSync(path.join(tmpdir(), 'acp-sub-')),
      connect: inProcessDemoAgent((acp) => {
        agentSide = acp;
        new DemoAgent(acp, { delayMs: 0 });
      }).connect,
      handlers,
      sinks: { capture: (dir, msg) => void wire.push({ dir, msg: msg as Wire['msg'] }), persist: () => undefined },
    }),
  );
  self = c;
  return { c, wire, agent: () => agentSide! };
}

const childOf = (c: ChatController) => c.store.sessions().find((s) => s.parentSessionId === c.sessionId);

describe('subagents in the chat', () => {
  it("a subagent's permission request is shown in the root session's chat, says which subagent asks, and is answered there", async () => {
    const { c, wire } = chat();
    await c.start();
    c.prompt('ask a subagent');
    const [perm] = await until(() => (c.panelState().permissions.length === 1 ? c.panelState().permissions : undefined), "the subagent's permission request in the panel");
    const child = childOf(c);
    assert.ok(child, 'the child session is in the store');
    assert.equal(perm?.fromSubagent, SUBAGENT_TITLE);
    // Drawn on the child's own tool call (its entry key), which the root's transcript does not hold.
    const tool = child.entries.find((e) => e.kind === 'tool_call');
    assert.equal(perm?.toolCallKey, tool?.key);
    assert.equal(c.entries().some((e) => e.key === tool?.key), false);
    assert.equal(c.broker.respond(perm!.requestId, 'demo-reject-once'), true);
    await c.whenIdle();
    const asked = wire.find((w) => w.dir === 'agent->client' && w.msg.method === 'session/request_permission');
    assert.equal(asked?.msg.params?.sessionId, child.sessionId);
    const answer = wire.find((w) => w.dir === 'client->agent' && w.msg.id === asked?.msg.id && w.msg.method === undefined);
    assert.deepEqual(answer?.msg.result, { outcome: { outcome: 'selected', optionId: 'demo-reject-once' } });
    assert.deepEqual(c.panelState().permissions, []);
    const after = c.store.session(child.sessionId)?.entries.find((e) => e.kind === 'tool_call');
    assert.equal(after?.kind === 'tool_call' ? after.status : null, 'rejected', 'the child saw the rejection');
    // A terminal the subagent created: its output is recorded for the subagent's session, not the attached one.
    c.terminalEvent('term-1', 'built\n', undefined, child.sessionId);
    assert.equal(c.store.session(child.sessionId)?.terminals['term-1']?.output, 'built\n');
    assert.equal(c.current()?.terminals['term-1'], undefined);
    c.dispose();
  });

  it("a subagent's question is shown in the root session's chat with its title; the root's own question has none", async () => {
    const { c, agent } = chat();
    await c.start();
    c.prompt('ask a subagent');
    await until(() => c.panelState().permissions[0], 'the permission request');
    c.broker.respond(c.panelState().permissions[0]!.requestId, 'demo-reject-once');
    await c.whenIdle();
    const child = childOf(c)!;
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const fromChild = agent().connection.sendRequest('elicitation/create', { sessionId: child.sessionId, mode: 'form', message: 'Which file?', requestedSchema: schema });
    const fromRoot = agent().connection.sendRequest('elicitation/create', { sessionId: c.sessionId, mode: 'form', message: 'Go on?', requestedSchema: schema });
    const questions = await until(() => (c.panelState().elicitations.length === 2 ? c.panelState().elicitations : undefined), 'both questions in the panel');
    assert.deepEqual(questions.map((q) => [q.message, q.fromSubagent]), [['Which file?', SUBAGENT_TITLE], ['Go on?', undefined]]);
    for (const q of questions) c.elicitations.respond(q.requestId, { action: 'decline' });
    assert.deepEqual(await fromChild, { action: 'decline' });
    assert.deepEqual(await fromRoot, { action: 'decline' });
    // A question for a session nobody opened or announced never reaches the panel.
    await assert.rejects(agent().connection.sendRequest('elicitation/create', { sessionId: 'made-up', mode: 'form', message: 'Smuggled?', requestedSchema: schema }), /unknown session "made-up"/);
    assert.deepEqual(c.panelState().elicitations, []);
    c.dispose();
  });
});
