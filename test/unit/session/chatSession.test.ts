// The chat controller against the real demo agent in-process: turns, queueing, permissions through
// the broker, cancellation, crash and restart without duplicated entries, and the patches it emits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import type { EarlierLink } from '../../../src/node/chat/chatPorts';
import { MessageStore } from '../../../src/common/store';
import { parseSettings } from '../../../src/common/config/settings';
import type { ClientHandlers } from '../../../src/node/acp/handlers';
import { inProcessDemoAgent, chatOptions } from './harness';
import { until } from '../../helpers/until.mjs';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import { rpcError } from '../../../src/node/transport/connection';

const settings = parseSettings(() => undefined).settings;
function makeSession(
  opts: {
    store?: MessageStore;
    restoredSessionId?: string | null;
    restoredEarlier?: EarlierLink | null;
    agent?: ReturnType<typeof inProcessDemoAgent>;
    handlers?: () => ClientHandlers;
    settings?: typeof settings;
  } = {},
) {
  const agent = opts.agent ?? inProcessDemoAgent();
  const changes: PanelDelta[] = [];
  const wire: string[] = [];
  const links: (EarlierLink | null)[] = [];
  const session = new ChatController(
    chatOptions({
      store: opts.store ?? new MessageStore(),
      restoredSessionId: opts.restoredSessionId ?? null,
      restoredEarlier: opts.restoredEarlier ?? null,
      connect: agent.connect,
      settings: () => opts.settings ?? settings,
      handlers: () =>
        opts.handlers?.() ?? {
          requestPermission: async (p, _signal, askUser) => ({
            outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: p.toolCall.title ?? '', options: p.options }),
          }),
        },
      // The link to an earlier transcript is a client event: recorded in the store and the chat's journal.
      sinks: { capture: (dir) => wire.push(dir), persist: () => undefined, recorded: (e) => void (e.event === 'earlier' && links.push(e.link)) },
    }),
  );
  session.onDidChange((c) => changes.push(...c));
  return { session, agent, changes, wire, links };
}

const text = (e: { content: readonly unknown[] }) =>
  e.content.map((b) => (typeof b === 'object' && b !== null && 'text' in b ? String((b as { text: unknown }).text) : '')).join('');

test('a turn streams the demo answer into the transcript and goes back to idle', async () => {
  const { session, changes, wire } = makeSession();
  await session.start();
  assert.equal(session.turnState, 'idle');
  assert.ok(session.sessionId);
  session.prompt('hello');
  await session.whenIdle();
  const entries = session.entries();
  assert.equal(entries[0]?.kind, 'user_message');
  assert.equal(entries[0]?.provenance, 'local');
  assert.ok(entries.some((e) => e.kind === 'agent_thought'));
  assert.ok(entries.some((e) => e.kind === 'tool_call'));
  const answer = entries.find((e) => e.kind === 'agent_message');
  assert.ok(answer && answer.kind === 'agent_message');
  assert.match(text(answer), /Hello from the ACP Chat demo agent\./);
  assert.ok(
    changes.some((c) => c.type === 'entryUpdated' && c.appendedText !== undefined),
    'streamed text arrives as appended text',
  );
  assert.ok(wire.includes('client->agent') && wire.includes('agent->client'), 'every message reaches the capture sink');
  session.dispose();
});

test('prompts typed during a turn are queued and run in order', async () => {
  const { session, changes } = makeSession();
  await session.start();
  session.prompt('first');
  session.prompt('second');
  assert.ok(changes.some((c) => c.type === 'panel' && c.fields.queuedPrompts?.some((q) => q.text === 'second')));
  await session.whenIdle();
  const users = session
    .entries()
    .filter((e) => e.kind === 'user_message')
    .map((e) => text(e as { content: readonly unknown[] }));
  assert.deepEqual(users, ['first', 'second']);
  session.dispose();
});

test('a prompt steered during a turn goes into that turn and shows where it was taken; one the agent cannot take is queued, with a notice', async () => {
  const { session } = makeSession({ agent: inProcessDemoAgent((acp) => new DemoAgent(acp, { delayMs: 2, steering: true })) });
  await session.start();
  assert.equal(session.panelState().canSteer, true);
  session.prompt('first');
  await until(() => session.entries().some((e) => e.kind === 'agent_thought'), 'the thought');
  session.prompt('also mind the tests', [], true);
  session.prompt('cannot steer this', [], true);
  await session.whenIdle();
  const entries = session.entries();
  const users = entries.filter((e) => e.kind === 'user_message').map((e) => text(e as { content: readonly unknown[] }));
  assert.deepEqual(users, ['first', 'also mind the tests', 'cannot steer this'], 'steered in the turn; the failed one sent as the next turn');
  const steeredAt = entries.findIndex((e) => e.kind === 'user_message' && text(e) === 'also mind the tests');
  const secondTurn = entries.findIndex((e) => e.kind === 'user_message' && text(e) === 'cannot steer this');
  assert.ok(
    entries.slice(steeredAt, secondTurn).some((e) => e.kind === 'agent_message' && /Noted, mid-turn/.test(text(e))),
    'the running turn took it',
  );
  assert.ok(
    entries.slice(steeredAt + 1, secondTurn).some((e) => e.kind === 'tool_call' || e.kind === 'agent_message'),
    'inside the first turn, not after it',
  );
  assert.ok(session.panelState().notices.some((n) => /queued instead/.test(n.title) && /failed/.test(n.description ?? '')));
  session.dispose();
});

test('queued prompts are edited, reordered and removed from the panel before they are sent', async () => {
  const { session } = makeSession({ agent: inProcessDemoAgent((acp) => new DemoAgent(acp, { delayMs: 2 })) });
  await session.start();
  session.prompt('first');
  session.prompt('second');
  session.prompt('third');
  session.prompt('fourth');
  const ids = () => session.panelState().queuedPrompts.map((q) => q.id);
  const [second, third, fourth] = ids();
  assert.ok(second && third && fourth);
  session.handleWebviewMessage({ type: 'editQueued', id: second, text: 'second, reworded' });
  session.handleWebviewMessage({ type: 'moveQueued', id: fourth, offset: -1 });
  session.handleWebviewMessage({ type: 'removeQueued', id: third });
  assert.deepEqual(
    session.panelState().queuedPrompts.map((q) => q.text),
    ['second, reworded', 'fourth'],
  );
  await session.whenIdle();
  const users = session
    .entries()
    .filter((e) => e.kind === 'user_message')
    .map((e) => text(e as { content: readonly unknown[] }));
  assert.deepEqual(users, ['first', 'second, reworded', 'fourth']);
  session.dispose();
});

test('a permission request waits in the broker until the user answers', async () => {
  const { session } = makeSession();
  await session.start();
  session.prompt('please edit notes.txt');
  await until(() => session.broker.pending().length > 0, 'the permission request');
  const [req] = session.broker.pending();
  assert.ok(req, 'the request is visible');
  assert.equal(session.panelState().permissions.length, 1);
  const allow = req.options.find((o) => o.kind === 'allow_once');
  assert.ok(allow);
  session.handleWebviewMessage({ type: 'permission', requestId: req.requestId, optionId: allow.optionId });
  await session.whenIdle();
  assert.equal(session.broker.pending().length, 0);
  session.dispose();
});

test('cancel answers the pending permission with cancelled and ends the turn', async () => {
  const { session } = makeSession();
  await session.start();
  session.prompt('edit with permission');
  await until(() => session.broker.pending().length > 0, 'the permission request');
  assert.equal(session.broker.pending().length, 1);
  session.cancel();
  await session.whenIdle();
  assert.equal(session.broker.pending().length, 0);
  assert.equal(session.turnState, 'idle');
  const tools = session.entries().filter((e) => e.kind === 'tool_call');
  assert.ok(
    tools.every((t) => t.kind === 'tool_call' && ['completed', 'failed', 'cancelled'].includes(t.status)),
    JSON.stringify(tools.map((t) => t.kind === 'tool_call' && t.status)),
  );
  session.dispose();
});

test('a crash says what happened; restart reattaches the same session without duplicating entries', async () => {
  // The manual path: automatic restarts are recovery.test.ts's.
  const { session, agent } = makeSession({ settings: { ...settings, restartOnCrash: false } });
  await session.start();
  session.prompt('hello');
  await session.whenIdle();
  const before = session.entries().map((e) => e.key);
  const sid = session.sessionId;
  agent.crash();
  await until(() => session.turnState === 'exited', 'the exit');
  assert.equal(session.turnState, 'exited');
  assert.match(session.panelState().message ?? '', /stopped.*Restart/);
  await session.restart();
  assert.equal(session.turnState, 'idle');
  assert.equal(agent.connections, 2);
  assert.equal(session.sessionId, sid, 'the same session is reattached');
  assert.deepEqual(
    session.entries().map((e) => e.key),
    before,
    'no entry duplicated or re-keyed',
  );
  session.dispose();
});

test('a reattach of the session the panel shows sends no fresh snapshot (its replay came as patches); a new session does', async () => {
  const { session, agent, changes } = makeSession({ settings: { ...settings, restartOnCrash: false } });
  await session.start();
  assert.ok(
    changes.some((c) => c.type === 'reset'),
    'a new session: the panel starts over',
  );
  session.prompt('hello');
  await session.whenIdle();
  agent.crash();
  await until(() => session.turnState === 'exited', 'the exit');
  changes.length = 0;
  await session.restart();
  assert.equal(agent.connections, 2);
  assert.ok(!changes.some((c) => c.type === 'reset'), `no fresh snapshot: ${JSON.stringify(changes.map((c) => c.type))}`);
  const fields = changes.flatMap((c) => (c.type === 'panel' ? Object.keys(c.fields) : []));
  for (const f of ['canFork', 'availableCommands', 'title', 'turn']) assert.ok(fields.includes(f), `the panel hears ${f} again`);
  for (const f of ['terminals', 'changeSets', 'earlier']) assert.ok(!fields.includes(f), `${f}: patched as they change, not sent again`);
  session.dispose();
});

test('a terminal the agent runs streams its output and exit status to the panel', async () => {
  let owner: ChatController | undefined;
  const terminals = new NodeTerminalHost({
    defaultCwd: process.cwd(),
    onOutput: (id, text) => owner?.terminalEvent(id, text),
    onExit: (id, status) => owner?.terminalEvent(id, '', { exitCode: status.exitCode ?? null, signal: status.signal ?? null }),
  });
  const { session, changes } = makeSession({
    handlers: () => ({
      requestPermission: async (p, _signal, askUser) => ({
        outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: '', options: p.options }),
      }),
      terminals,
    }),
  });
  owner = session;
  await session.start();
  session.prompt('run a command');
  await session.whenIdle();
  const views = Object.values(session.panelState().terminals);
  assert.equal(views.length, 1);
  assert.match(views[0]!.output, /Hello from the demo terminal/);
  assert.deepEqual([views[0]!.exited, views[0]!.exitCode], [true, 0]);
  assert.ok(changes.some((c) => c.type === 'terminal' && c.append.includes('Hello from the demo terminal')));
  assert.ok(changes.some((c) => c.type === 'terminal' && c.exit?.exitCode === 0));
  terminals.dispose();
  session.dispose();
});

test('pasted images go to an agent that accepts them, as image blocks after the text', async () => {
  const { session } = makeSession();
  await session.start();
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  session.handleWebviewMessage({ type: 'prompt', text: 'what is this?', images: [{ mimeType: 'image/png', data: png }] });
  await session.whenIdle();
  const user = session.entries().find((e) => e.kind === 'user_message');
  assert.ok(user && user.kind === 'user_message');
  assert.deepEqual(
    user.content.map((b) => b.type),
    ['text', 'image'],
  );
  session.dispose();
});

test('session history: list, a new session on the same connection, and back to the first one', async () => {
  const { session, agent } = makeSession();
  await session.start();
  session.prompt('first session');
  await session.whenIdle();
  const first = session.sessionId!;
  const firstKeys = session.entries().map((e) => e.key);
  await session.door.newSession();
  const second = session.sessionId!;
  assert.notEqual(second, first);
  assert.equal(session.entries().length, 0, 'the new session starts empty');
  assert.equal(agent.connections, 1, 'no new agent process');
  // New Session closed the first (session/close frees it on the agent), so the agent lists the second.
  const listed = await session.door.listSessions();
  assert.deepEqual(
    listed.map((s) => s.sessionId),
    [second],
  );
  await session.door.openSession(first);
  assert.equal(session.sessionId, first);
  assert.deepEqual(
    session.entries().map((e) => e.key),
    firstKeys,
    'reopened with the same entries and keys',
  );
  assert.deepEqual(
    session
      .sessions()
      .map((s) => s.sessionId)
      .sort(),
    [first, second].sort(),
    'both stay in the tree',
  );
  session.dispose();
});

test('a failed reattach keeps the saved transcript on screen, read-only above a marker, and prompts go to the new session', async () => {
  // First life: a conversation with the demo agent, saved in the store.
  const store = new MessageStore();
  const first = makeSession({ store });
  await first.session.start();
  first.session.prompt('hello');
  await first.session.whenIdle();
  const old = first.session.sessionId!;
  const oldKeys = first.session.entries().map((e) => e.key);
  first.session.dispose();

  // After a reload the agent no longer knows the session (Gemini CLI: -32603 on session/load).
  const forgetful = inProcessDemoAgent((acp) => {
    new DemoAgent(acp, { delayMs: 0 });
    for (const method of ['session/load', 'session/resume']) {
      acp.connection.onRequest(method, () => {
        throw rpcError(-32603, 'Internal error', { details: 'No previous sessions found for this project' });
      });
    }
  });
  const { session, changes, links } = makeSession({ store, restoredSessionId: old, agent: forgetful });
  await session.start();
  assert.equal(session.turnState, 'idle');
  const fresh = session.sessionId!;
  assert.notEqual(fresh, old, 'a new session was started');
  assert.ok(
    changes.some((c) => c.type === 'reset'),
    'the panel starts over: the saved transcript above a marker, then the new session',
  );

  const snap = session.snapshot();
  assert.deepEqual(
    snap.entries.map((e) => e.key),
    oldKeys,
    'the saved transcript is still what the panel shows',
  );
  assert.equal(snap.panel.earlier?.sessionId, old);
  assert.equal(snap.panel.earlier?.entryCount, oldKeys.length);
  assert.match(snap.panel.earlier?.reason ?? '', /No previous sessions found for this project/);

  changes.length = 0;
  session.prompt('are you there?');
  await session.whenIdle();
  const newEntries = session.entries();
  assert.equal(newEntries[0]?.kind, 'user_message');
  assert.equal(text(newEntries[0] as { content: readonly unknown[] }), 'are you there?');
  assert.deepEqual(
    store.session(old)?.entries.map((e) => e.key),
    oldKeys,
    'the old session is untouched',
  );
  // Patches index the panel's list, which starts with the earlier transcript.
  const firstInsert = changes.find((c) => c.type === 'entryInserted');
  assert.ok(firstInsert && firstInsert.type === 'entryInserted');
  assert.equal(firstInsert.index, oldKeys.length);
  assert.deepEqual(
    session.snapshot().entries.map((e) => e.key),
    [...oldKeys, ...newEntries.map((e) => e.key)],
  );
  // Actions on the earlier entries still find them.
  assert.equal(session.shownEntry(oldKeys[0]!)?.sessionId, old);

  // The link is the store's, saved with it, so the next reload (the new session reattached) still shows the old transcript.
  assert.equal(links.length, 1);
  const link = links[0]!;
  assert.deepEqual({ ...link, reason: '' }, { sessionId: fresh, earlierSessionId: old, reason: '' });
  assert.deepEqual(store.earlierLink(), link);
  session.dispose();
  const saved = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON()))).store;
  assert.deepEqual(saved.earlierLink(), link);
  const reloaded = makeSession({ store: saved, restoredSessionId: fresh });
  await reloaded.session.start();
  assert.equal(reloaded.session.sessionId, fresh, 'the new session is reattached');
  assert.deepEqual(
    reloaded.session
      .snapshot()
      .entries.map((e) => e.key)
      .slice(0, oldKeys.length),
    oldKeys,
  );
  assert.equal(reloaded.session.snapshot().panel.earlier?.sessionId, old);

  // Choosing another session leaves the earlier transcript behind, and forgets the link.
  await reloaded.session.door.newSession();
  assert.equal(reloaded.session.snapshot().panel.earlier, null);
  assert.deepEqual(reloaded.links, [null]);
  assert.equal(saved.earlierLink(), null);
  await reloaded.session.door.listSessions(); // a round trip, so the demo's post-session/new notification is out before we close
  reloaded.session.dispose();
});

test('the panel offers Fork Chat Here only when the agent advertises session/fork', async () => {
  for (const sessionOps of [true, false]) {
    const { session } = makeSession({ agent: inProcessDemoAgent((acp) => new DemoAgent(acp, { delayMs: 0, sessionOps })) });
    assert.equal(session.panelState().canFork, false, 'not before initialize');
    await session.start();
    assert.equal(session.panelState().canFork, sessionOps, `sessionOps ${sessionOps}`);
    session.dispose();
  }
});

test('a link to an earlier transcript saved per window by an older version moves into the store once', () => {
  const store = new MessageStore();
  const link = { sessionId: 'fresh', earlierSessionId: 'old', reason: 'No previous sessions found' };
  const { session, links } = makeSession({ store, restoredSessionId: 'fresh', restoredEarlier: link });
  assert.deepEqual(store.earlierLink(), link);
  assert.deepEqual(links, [link], 'recorded through the chat (journal and capture), not only set');
  session.dispose();
  // Now the store has it: nothing is recorded again, and an old link naming another session is not taken.
  const again = makeSession({ store, restoredSessionId: 'fresh', restoredEarlier: { ...link, earlierSessionId: 'other' } });
  assert.deepEqual(again.links, []);
  assert.deepEqual(store.earlierLink(), link);
  again.session.dispose();
});
