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
import { inProcessDemoAgent, chatOptions, noUi } from './harness';
import type { ChatUi } from '../../../src/node/chat/chatPorts';
import type { ChatModel } from '../../../src/common/webview/chatModel';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import { until } from '../../helpers/until.mjs';

type Wire = { dir: string; msg: { id?: unknown; method?: unknown; params?: { sessionId?: unknown }; result?: unknown } };

function chat(ui: Partial<ChatUi> = {}) {
  const wire: Wire[] = [];
  let agentSide: AcpConnection | undefined;
  let self: ChatController | undefined;
  // As the extension's handlers do (clientHandlers.ts): the card names the tool call by its entry key, a question goes to the chat's broker.
  const handlers = (): ClientHandlers => ({
    requestPermission: async (p, _signal, askUser) => ({
      outcome: await askUser({
        toolCallId: p.toolCall.toolCallId,
        toolCallKey: self?.toolCallKey(p.sessionId, p.toolCall.toolCallId) ?? null,
        title: p.toolCall.title ?? '',
        options: p.options,
      }),
    }),
    elicitation: {
      modes: { form: true, url: false },
      create: (ask, signal) =>
        self!.elicitations.ask(
          ask.params.sessionId ?? null,
          { entryKey: null, mode: ask.params.mode, message: ask.params.message, requestedSchema: ask.params.requestedSchema ?? null, url: null },
          signal,
        ),
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
      ui: { ...noUi, ...ui },
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
    assert.equal(
      c.entries().some((e) => e.key === tool?.key),
      false,
    );
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
    assert.deepEqual(
      questions.map((q) => [q.message, q.fromSubagent]),
      [
        ['Which file?', SUBAGENT_TITLE],
        ['Go on?', undefined],
      ],
    );
    for (const q of questions) c.elicitations.respond(q.requestId, { action: 'decline' });
    assert.deepEqual(await fromChild, { action: 'decline' });
    assert.deepEqual(await fromRoot, { action: 'decline' });
    // A question for a session nobody opened or announced never reaches the panel.
    await assert.rejects(
      agent().connection.sendRequest('elicitation/create', { sessionId: 'made-up', mode: 'form', message: 'Smuggled?', requestedSchema: schema }),
      /unknown session "made-up"/,
    );
    assert.deepEqual(c.panelState().elicitations, []);
    c.dispose();
  });

  it("Open on a card shows the subagent's own transcript, read-only and live, and answers its permission there; Stop cancels only the subagent", async () => {
    const opened: { model: ChatModel; title: string }[] = [];
    const { c, wire } = chat({ openSubagent: (model, title) => void opened.push({ model, title }) });
    await c.start();
    assert.equal(c.panelState().canOpenSubagents, true);
    c.prompt('ask a subagent');
    const [perm] = await until(() => (c.panelState().permissions.length === 1 ? c.panelState().permissions : undefined), "the subagent's permission request");
    const child = childOf(c)!;
    // A session id that is not a subagent of this chat opens nothing and stops nothing.
    c.handleWebviewMessage({ type: 'openSubagent', childSessionId: 'made-up' });
    c.handleWebviewMessage({ type: 'openSubagent', childSessionId: c.sessionId! });
    assert.equal(opened.length, 0);
    c.handleWebviewMessage({ type: 'openSubagent', childSessionId: child.sessionId });
    const [view] = opened;
    assert.equal(view?.title, SUBAGENT_TITLE);
    const snap = view!.model.snapshot();
    assert.equal(snap.panel.readOnly, true);
    assert.equal(snap.panel.sessionId, child.sessionId);
    assert.equal(snap.panel.turn, 'busy');
    assert.deepEqual(
      snap.entries.map((e) => e.key),
      c.store.session(child.sessionId)!.entries.map((e) => e.key),
    );
    assert.deepEqual(
      snap.panel.permissions.map((p) => p.requestId),
      [perm!.requestId],
    );
    const heard: PanelDelta[] = [];
    view!.model.onDidChange((d) => void heard.push(...d));
    // Answered in the subagent's view: the chat's broker settles it, and both views hear it.
    view!.model.handleWebviewMessage({ type: 'permission', requestId: perm!.requestId, optionId: 'demo-allow-once' });
    // A prompt from the read-only view goes nowhere.
    view!.model.handleWebviewMessage({ type: 'prompt', text: 'hi from the child view' });
    await c.whenIdle();
    assert.deepEqual(c.panelState().permissions, []);
    assert.ok(
      heard.some((d) => d.type === 'entryInserted' || d.type === 'entryUpdated'),
      "the view heard the child's later entries",
    );
    assert.equal(view!.model.snapshot().panel.turn, 'idle');
    assert.equal(
      wire.some((w) => w.dir === 'client->agent' && JSON.stringify(w.msg).includes('hi from the child view')),
      false,
    );
    // Stop: session/cancel for the child only, and only while it offers cancel (the demo's child does).
    c.handleWebviewMessage({ type: 'cancelSubagent', childSessionId: 'made-up' });
    c.handleWebviewMessage({ type: 'cancelSubagent', childSessionId: child.sessionId });
    const cancels = wire.filter((w) => w.dir === 'client->agent' && w.msg.method === 'session/cancel').map((w) => w.msg.params?.sessionId);
    assert.deepEqual(cancels, [child.sessionId]);
    c.dispose();
  });

  it("a subagent's transcript expanded in its card: a model of the child only (none for the chat's own session or a stranger), its requests left to the chat's panel; its entries are the chat's for diffs and the tree", async () => {
    const { c } = chat();
    await c.start();
    c.prompt('ask a subagent');
    const [perm] = await until(() => (c.panelState().permissions.length === 1 ? c.panelState().permissions : undefined), "the subagent's permission request");
    const child = childOf(c)!;
    assert.equal(c.subagentView('made-up'), undefined);
    assert.equal(c.subagentView(c.sessionId!), undefined);
    const view = c.subagentView(child.sessionId)!;
    const snap = view.snapshot();
    assert.equal(snap.panel.sessionId, child.sessionId);
    assert.equal(snap.panel.turn, 'busy');
    assert.deepEqual(
      snap.entries.map((e) => e.key),
      c.store.session(child.sessionId)!.entries.map((e) => e.key),
    );
    assert.deepEqual(snap.panel.permissions, [], "the chat's panel lists the request (drawn on the expanded card by the webview)");
    const tool = child.entries.find((e) => e.kind === 'tool_call')!;
    assert.equal(c.shownEntry(tool.key)?.sessionId, child.sessionId, 'Open diff / Show in tree on a card of the expanded child find it');
    assert.equal(c.broker.respond(perm!.requestId, 'demo-allow-once'), true);
    await c.whenIdle();
    view.dispose();
    c.dispose();
  });

  it('Stop on a running subagent ends its work as cancelled while the parent goes on', async () => {
    const { c } = chat();
    await c.start();
    c.prompt('ask a subagent');
    await until(() => c.panelState().permissions[0], "the subagent's permission request");
    const child = childOf(c)!;
    c.handleWebviewMessage({ type: 'cancelSubagent', childSessionId: child.sessionId });
    await c.whenIdle();
    const card = c.entries().find((e) => e.kind === 'subagent');
    assert.deepEqual(card?.kind === 'subagent' ? [card.state, card.stopReason] : null, ['idle', 'cancelled']);
    assert.deepEqual(c.panelState().permissions, [], "the stopped child's request was settled");
    assert.equal(c.panelState().turn, 'idle');
    c.dispose();
  });

  it("a running subagent's card says what it is doing now (its open tool call), posted only when that changes", async () => {
    const { c } = chat();
    await c.start();
    const posted: (Readonly<Record<string, string>> | undefined)[] = [];
    c.onDidChange((deltas) => {
      for (const d of deltas) if (d.type === 'panel' && d.fields.subagentActivity) posted.push(d.fields.subagentActivity);
    });
    c.prompt('ask a subagent');
    const [perm] = await until(() => (c.panelState().permissions.length === 1 ? c.panelState().permissions : undefined), "the subagent's permission request");
    const child = childOf(c)!;
    const tool = c.store.session(child.sessionId)!.entries.find((e) => e.kind === 'tool_call');
    assert.equal(c.panelState().subagentActivity?.[child.sessionId], tool?.kind === 'tool_call' ? tool.title : undefined);
    c.broker.respond(perm!.requestId, 'demo-allow-once');
    await c.whenIdle();
    assert.equal(c.panelState().subagentActivity?.[child.sessionId], '');
    // Once per change of what it says (the tool call's own updates that keep the title post nothing).
    assert.deepEqual(
      posted.map((a) => a?.[child.sessionId]),
      [tool?.kind === 'tool_call' ? tool.title : undefined, ''],
    );
    c.dispose();
  });
});
