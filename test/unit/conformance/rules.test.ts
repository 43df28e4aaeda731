// Every conformance rule, both ways: a minimal capture that triggers it and a near miss that must not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConformanceChecker, RULE_IDS, SKIPPED_LINE_NOTE } from '../../../src/common/conformance';
import type { Finding, RuleId } from '../../../src/common/conformance';

type Rec = { dir: string; msg?: unknown; text?: string; reason?: string; raw?: string };
const C = (msg: unknown): Rec => ({ dir: 'client->agent', msg });
const A = (msg: unknown): Rec => ({ dir: 'agent->client', msg });
const req = (id: number | string, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
const res = (id: number | string | null, result: unknown) => ({ jsonrpc: '2.0', id, result });
const err = (id: number | string | null, error: unknown) => ({ jsonrpc: '2.0', id, error });
const note = (method: string, params: unknown) => ({ jsonrpc: '2.0', method, params });
const up = (update: Record<string, unknown>, sessionId = 's') => A(note('session/update', { sessionId, update }));
const text = (t: string) => ({ type: 'text', text: t });

interface Setup {
  version?: 1 | 2;
  clientCaps?: Record<string, unknown>;
  agentCaps?: Record<string, unknown>;
}
/** initialize + session/new (id "s") + an open prompt (id 2). */
function open(o: Setup = {}): Rec[] {
  const v = o.version ?? 1;
  const caps = o.clientCaps ?? { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
  return [
    C(req(0, 'initialize', { protocolVersion: v, clientCapabilities: caps })),
    A(
      res(
        0,
        v === 2
          ? { protocolVersion: 2, info: { name: 'a', version: '1' }, capabilities: o.agentCaps ?? { session: {} } }
          : { protocolVersion: 1, agentCapabilities: o.agentCaps ?? {} },
      ),
    ),
    C(req(1, 'session/new', { cwd: '/w', mcpServers: [] })),
    A(res(1, { sessionId: 's' })),
    C(req(2, 'session/prompt', { sessionId: 's', prompt: [text('hi')] })),
  ];
}
const endTurn = (stopReason = 'end_turn') => A(res(2, { stopReason }));

function check(recs: Rec[]): Finding[] {
  const c = new ConformanceChecker();
  recs.forEach((r, i) => c.observeRecord(r, i + 1));
  c.finish();
  return [...c.findings()];
}
function fired(recs: Rec[], rule: RuleId): Finding[] {
  return check(recs).filter((f) => f.rule === rule);
}
/** The rule fires exactly on `line` (1-based), and the near miss is clean of it. */
function both(rule: RuleId, bad: Rec[], good: Rec[], line = bad.length, severity?: 'error' | 'warning'): void {
  const hits = fired(bad, rule);
  assert.ok(hits.length > 0, `${rule} did not fire; findings: ${JSON.stringify(check(bad))}`);
  assert.ok(
    hits.some((f) => f.line === line),
    `${rule} fired on lines ${hits.map((f) => f.line).join(',')}, not ${line}`,
  );
  if (severity) assert.equal(hits[0]!.severity, severity);
  assert.ok(hits[0]!.message.includes(':'), 'the message says what to change');
  assert.deepEqual(fired(good, rule), [], `${rule} fired on the near miss`);
}

const tested = new Set<RuleId>();
function rule(id: RuleId, fn: () => void): void {
  tested.add(id);
  it(id, fn);
}

describe('conformance rules', () => {
  rule('stdout-not-json', () => {
    const skipped = (reason: string): Rec => ({ dir: 'note', msg: { text: SKIPPED_LINE_NOTE, reason, raw: 'Listening on http://localhost:3000' } });
    both('stdout-not-json', [...open(), skipped('not JSON')], [...open(), { dir: 'note', msg: { text: 'spawn', cmd: ['x'] } }], 6, 'error');
    // The transcripts' note form (fields at the top level) counts too.
    assert.equal(fired([{ dir: 'note', text: SKIPPED_LINE_NOTE, reason: 'not JSON', raw: 'hi' }], 'stdout-not-json').length, 1);
    // A refused line that *is* JSON (a batch) is an invalid message, not a non-JSON line.
    assert.deepEqual(fired([skipped('JSON-RPC batches are not supported')], 'stdout-not-json'), []);
    assert.equal(fired([skipped('JSON-RPC batches are not supported')], 'invalid-message').length, 1);
  });

  rule('invalid-message', () => {
    // envelope
    both(
      'invalid-message',
      [...open(), A({ jsonrpc: '1.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } } })],
      [...open(), up({ sessionUpdate: 'plan', entries: [] })],
      6,
      'error',
    );
    // a known method's params, with the zod path
    const bad = fired([...open(), A(req(7, 'fs/read_text_file', { sessionId: 's' }))], 'invalid-message');
    assert.match(bad[0]!.message, /params\.path/);
    assert.deepEqual(fired([...open(), A(req(7, 'fs/read_text_file', { sessionId: 's', path: '/w/a' }))], 'invalid-message'), []);
    // a result
    const r = fired([C(req(1, 'session/new', { cwd: '/w', mcpServers: [] })), A(res(1, { id: 's' }))], 'invalid-message');
    assert.match(r[0]!.message, /result\.sessionId/);
    // an update's required field
    assert.match(fired([...open(), up({ sessionUpdate: 'tool_call', toolCallId: 't' })], 'invalid-message')[0]!.message, /title/);
    // batches and non-objects
    assert.equal(fired([A([res(1, {})])], 'invalid-message').length, 1);
    assert.equal(fired([A(res(1, {})), A('hello')], 'invalid-message').length, 1);
  });

  rule('field-malformed', () => {
    both(
      'field-malformed',
      [...open(), up({ sessionUpdate: 'plan', entries: [{ content: 'x' }] })],
      [...open(), up({ sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'low', status: 'pending' }] })],
      6,
      'warning',
    );
  });

  rule('unknown-method', () => {
    both('unknown-method', [...open(), A(note('craft/drainMidTurnQueue', {}))], [...open(), A(note('_craft/drainMidTurnQueue', {}))], 6, 'error');
    // A client-side method sent by the agent is in the wrong direction.
    assert.match(fired([...open(), A(req(9, 'session/prompt', {}))], 'unknown-method')[0]!.message, /client calls on the agent/);
    // fs/* does not exist in v2.
    assert.equal(fired([...open({ version: 2 }), A(req(9, 'fs/read_text_file', { sessionId: 's', path: '/a' }))], 'unknown-method').length, 1);
    // Unstable and both-direction names are known.
    assert.deepEqual(fired([...open(), A(note('$/cancel_request', { requestId: 1 })), A(req(8, 'elicitation/create', { mode: 'form' }))], 'unknown-method'), []);
  });

  rule('update-kind-unknown', () => {
    both(
      'update-kind-unknown',
      [...open(), up({ sessionUpdate: 'agent_message', messageId: 'm', content: [text('x')] })],
      [...open(), up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('x') })],
      6,
      'warning',
    );
    assert.deepEqual(fired([...open({ version: 2 }), up({ sessionUpdate: '_vendor_progress' })], 'update-kind-unknown'), []);
  });

  rule('message-id-missing', () => {
    // v2: an error on every chunk or upsert without an id
    both(
      'message-id-missing',
      [...open({ version: 2 }), up({ sessionUpdate: 'agent_message_chunk', content: text('x') })],
      [...open({ version: 2 }), up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('x') })],
      6,
      'error',
    );
    // v1: a warning only when the agent sends ids on some chunks and omits them on others (before or after)
    const mixed = [
      ...open(),
      up({ sessionUpdate: 'agent_message_chunk', content: text('a') }),
      up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('b') }),
      up({ sessionUpdate: 'agent_thought_chunk', content: text('c') }),
    ];
    const hits = fired(mixed, 'message-id-missing');
    assert.deepEqual(
      hits.map((f) => [f.line, f.severity]),
      [
        [6, 'warning'],
        [8, 'warning'],
      ],
    );
    assert.deepEqual(
      fired([...open(), up({ sessionUpdate: 'agent_message_chunk', content: text('a') }), up({ sessionUpdate: 'agent_thought_chunk', content: text('b') })], 'message-id-missing'),
      [],
    );
  });

  rule('message-id-kind-conflict', () => {
    both(
      'message-id-kind-conflict',
      [
        ...open(),
        up({ sessionUpdate: 'agent_thought_chunk', messageId: 'm', content: text('a') }),
        up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('b') }),
      ],
      [
        ...open(),
        up({ sessionUpdate: 'agent_thought_chunk', messageId: 't', content: text('a') }),
        up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('b') }),
      ],
      7,
      'error',
    );
    // A v2 upsert and the chunks of the same message are one kind.
    assert.deepEqual(
      fired(
        [
          ...open({ version: 2 }),
          up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('a') }),
          up({ sessionUpdate: 'agent_message', messageId: 'm', content: [text('b')] }),
        ],
        'message-id-kind-conflict',
      ),
      [],
    );
  });

  rule('tool-call-unknown', () => {
    both(
      'tool-call-unknown',
      [...open(), up({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'in_progress' })],
      [...open(), up({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' }), up({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'in_progress' })],
      6,
      'warning',
    );
    // A permission request announces its tool call (gemini's order).
    assert.deepEqual(
      fired(
        [
          ...open(),
          A(req(5, 'session/request_permission', { sessionId: 's', toolCall: { toolCallId: 't' }, options: [] })),
          up({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }),
        ],
        'tool-call-unknown',
      ),
      [],
    );
    // v2 tool_call_update is an upsert.
    assert.deepEqual(fired([...open({ version: 2 }), up({ sessionUpdate: 'tool_call_update', toolCallId: 't', title: 'x' })], 'tool-call-unknown'), []);
  });

  rule('tool-call-after-end', () => {
    const start = [...open(), up({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' }), up({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' })];
    both(
      'tool-call-after-end',
      [...start, up({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [] })],
      [...start, up({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read again' })],
      8,
      'warning',
    );
  });

  rule('update-after-turn-end', () => {
    both(
      'update-after-turn-end',
      [...open(), endTurn(), up({ sessionUpdate: 'agent_message_chunk', content: text('late') })],
      [...open(), endTurn(), up({ sessionUpdate: 'usage_update', used: 1, size: 2 })],
      7,
      'warning',
    );
    // Replay during session/load is not late.
    const load = [
      ...open(),
      endTurn(),
      C(req(3, 'session/load', { sessionId: 's', cwd: '/w', mcpServers: [] })),
      up({ sessionUpdate: 'agent_message_chunk', content: text('old') }),
      A(res(3, {})),
    ];
    assert.deepEqual(fired(load, 'update-after-turn-end'), []);
    // v2: content after the idle state update, unless running was reported first.
    const v2 = [...open({ version: 2 }), A(res(2, { messageId: 'u' })), up({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' })];
    assert.equal(fired([...v2, up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('x') })], 'update-after-turn-end').length, 1);
    assert.deepEqual(
      fired(
        [...v2, up({ sessionUpdate: 'state_update', state: 'running' }), up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('x') })],
        'update-after-turn-end',
      ),
      [],
    );
  });

  rule('session-update-early', () => {
    const early = [
      C(req(1, 'session/new', { cwd: '/w', mcpServers: [] })),
      up({ sessionUpdate: 'available_commands_update', availableCommands: [] }),
      A(res(1, { sessionId: 's' })),
    ];
    both('session-update-early', early, [early[0]!, early[2]!, early[1]!], 2, 'warning');
    assert.deepEqual(fired(early, 'session-unknown'), []);
  });

  rule('session-unknown', () => {
    both('session-unknown', [...open(), up({ sessionUpdate: 'plan', entries: [] }, 'other')], [...open(), up({ sessionUpdate: 'plan', entries: [] }, 's')], 6, 'error');
    assert.equal(fired([...open(), A(req(4, 'fs/read_text_file', { sessionId: 'nope', path: '/a' }))], 'session-unknown').length, 1);
  });

  // Subagents: 'c' is a child of 's' once s announces it; the client advertised `subagents`.
  const sub = { clientCaps: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, subagents: {} } };
  const announce = (child = 'c', on = 's') => up({ sessionUpdate: 'subagent_update', sessionId: child, title: 'Read notes.txt', state: { state: 'running' } }, on);
  const childText = (child = 'c') => up({ sessionUpdate: 'agent_message_chunk', messageId: 'cm', content: text('x') }, child);
  const toChild = (id = 'p1') => up({ sessionUpdate: 'session_message', messageId: id, senderSessionId: 's', recipientSessionId: 'c', content: [text('go')] });
  const fromChild = (id = 'p1:reply', route: Record<string, unknown> = { senderSessionId: 'c', recipientSessionId: 's' }) =>
    up({ sessionUpdate: 'session_message', messageId: id, ...route, content: [text('done')] });
  const close = (id = 3) => [C(req(id, 'session/close', { sessionId: 's' })), A(res(id, {}))];

  rule('subagent-before-announce', () => {
    both('subagent-before-announce', [...open(sub), childText(), announce()], [...open(sub), announce(), childText()], 6, 'error');
    // A request from the child, and a session_message naming it, count as its traffic too.
    assert.deepEqual(
      fired([...open(sub), A(req(7, 'session/request_permission', { sessionId: 'c', toolCall: { toolCallId: 't' }, options: [] })), announce()], 'subagent-before-announce').map(
        (f) => f.line,
      ),
      [6],
    );
    assert.deepEqual(
      fired([...open(sub), toChild(), announce()], 'subagent-before-announce').map((f) => f.line),
      [6],
    );
    // Early, not unknown; and a child never announced stays unknown.
    assert.deepEqual(fired([...open(sub), childText(), announce()], 'session-unknown'), []);
    assert.equal(fired([...open(sub), childText()], 'session-unknown').length, 1);
    // Only live traffic: a session/load replay may bring the child's history before its announcement.
    const replay = [...open(sub), endTurn(), C(req(3, 'session/load', { sessionId: 's', cwd: '/w', mcpServers: [] })), childText(), announce(), A(res(3, {}))];
    assert.deepEqual(fired(replay, 'subagent-before-announce'), []);
  });

  rule('subagent-reply-unprompted', () => {
    both('subagent-reply-unprompted', [...open(sub), announce(), fromChild()], [...open(sub), announce(), toChild(), fromChild()], 7, 'warning');
    // The sender may come in a later patch of the same message; the message is judged once.
    const late = [...open(sub), announce(), fromChild('r', {}), fromChild('r'), fromChild('r')];
    assert.deepEqual(
      fired(late, 'subagent-reply-unprompted').map((f) => f.line),
      [8],
    );
    // A message from a session that is no subagent (the parent) is no reply.
    assert.deepEqual(fired([...open(sub), announce(), toChild()], 'subagent-reply-unprompted'), []);
  });

  rule('update-after-close', () => {
    const closed = [...open(sub), announce(), endTurn(), ...close()];
    both('update-after-close', [...closed, childText()], [...open(sub), announce(), endTurn(), close()[0]!, childText(), close()[1]!], 10, 'warning');
    // The closed session's own updates too; not after an error answer; a session/load reopens it.
    assert.equal(fired([...closed, up({ sessionUpdate: 'usage_update', used: 1, size: 2 })], 'update-after-close').length, 1);
    assert.deepEqual(fired([...open(sub), announce(), endTurn(), close()[0]!, A(err(3, { code: -32601, message: 'Method not found' })), childText()], 'update-after-close'), []);
    const load = [C(req(4, 'session/load', { sessionId: 's', cwd: '/w', mcpServers: [] })), A(res(4, {}))];
    assert.deepEqual(fired([...closed, ...load, up({ sessionUpdate: 'usage_update', used: 1, size: 2 })], 'update-after-close'), []);
  });

  it('subagents: an announced child (any depth) is a known session', () => {
    const grandchild = [
      ...open(sub),
      announce(),
      announce('g', 'c'),
      childText('g'),
      A(req(7, 'session/request_permission', { sessionId: 'g', toolCall: { toolCallId: 't' }, options: [] })),
    ];
    assert.deepEqual(fired(grandchild, 'session-unknown'), []);
    assert.deepEqual(fired(grandchild, 'session-update-early'), []);
    // Announced by a session the client never had: both stay unknown; a session of the client's own is no child.
    assert.equal(fired([...open(sub), announce('c', 'x'), childText()], 'session-unknown').length, 2);
    // Announced before the client had the parent's id: the child is learned with its parent (both early, not unknown).
    const beforeNew = [...open(sub).slice(0, 3), announce(), childText(), open(sub)[3]!];
    assert.deepEqual(fired(beforeNew, 'session-unknown'), []);
    assert.deepEqual(
      fired(beforeNew, 'session-update-early').map((f) => f.line),
      [4, 5],
    );
    const other = [C(req(5, 'session/new', { cwd: '/w', mcpServers: [] })), A(res(5, { sessionId: 'z' }))];
    assert.deepEqual(
      fired([...open(sub), ...other, announce('z', 's'), endTurn(), ...close(), up({ sessionUpdate: 'usage_update', used: 1, size: 2 }, 'z')], 'update-after-close'),
      [],
    );
  });

  it('subagents: a chain of announcements is learned only 64 levels deep (each walk up stays short)', () => {
    const chain = Array.from({ length: 70 }, (_, i) => announce(`c${i}`, i === 0 ? 's' : `c${i - 1}`));
    const unknown = fired([...open(sub), ...chain, childText('c63'), childText('c65')], 'session-unknown');
    assert.deepEqual(
      [...new Set(unknown.map((f) => f.sessionId))].filter((id) => id === 'c63' || id === 'c65'),
      ['c65'],
    );
  });

  it('subagents: a session_message is a message kind of its own for message ids', () => {
    both(
      'message-id-kind-conflict',
      [...open(sub), announce(), toChild('m'), up({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: text('b') })],
      [...open(sub), announce(), toChild('m'), up({ sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('b') })],
      8,
      'error',
    );
    // Its required id does not make the agent's id-less chunks look inconsistent.
    assert.deepEqual(fired([...open(sub), announce(), toChild(), up({ sessionUpdate: 'agent_message_chunk', content: text('b') })], 'message-id-missing'), []);
  });

  it('subagents: subagent_update and session_message need clientCapabilities.subagents', () => {
    both('capability-unadvertised', [...open(), announce()], [...open(sub), announce()], 6, 'error');
    assert.equal(fired([...open(), up({ sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('b') })], 'capability-unadvertised').length, 1);
    assert.deepEqual(fired([...open({ version: 2 }), announce()], 'capability-unadvertised'), [], 'v2: subagents are baseline');
  });

  rule('capability-unadvertised', () => {
    const noFs = { clientCaps: { terminal: false } };
    both(
      'capability-unadvertised',
      [...open(noFs), A(req(4, 'fs/write_text_file', { sessionId: 's', path: '/a', content: '' }))],
      [...open(), A(req(4, 'fs/write_text_file', { sessionId: 's', path: '/a', content: '' }))],
      6,
      'error',
    );
    assert.equal(fired([...open(noFs), A(req(4, 'terminal/create', { sessionId: 's', command: 'ls' }))], 'capability-unadvertised').length, 1);
    assert.equal(fired([...open(), up({ sessionUpdate: 'notice', severity: 'info', title: 'hi' })], 'capability-unadvertised').length, 1);
    assert.deepEqual(fired([...open({ clientCaps: { session: { notices: {} } } }), up({ sessionUpdate: 'notice', severity: 'info', title: 'hi' })], 'capability-unadvertised'), []);
    const bool = up({ sessionUpdate: 'config_option_update', configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: true }] });
    assert.equal(fired([...open(), bool], 'capability-unadvertised').length, 1);
    assert.deepEqual(fired([...open({ clientCaps: { session: { configOptions: { boolean: {} } } } }), bool], 'capability-unadvertised'), []);
    // An agent method answered without being advertised: a warning.
    const load = [...open(), C(req(3, 'session/load', { sessionId: 's', cwd: '/w', mcpServers: [] })), A(res(3, {}))];
    assert.deepEqual(
      fired(load, 'capability-unadvertised').map((f) => [f.line, f.severity]),
      [[7, 'warning']],
    );
    assert.deepEqual(fired([...open({ agentCaps: { loadSession: true } }), ...load.slice(5)], 'capability-unadvertised'), []);
    // ...and an error answer is fine (method not found).
    assert.deepEqual(fired([...open(), load[5]!, A(err(3, { code: -32601, message: 'Method not found' }))], 'capability-unadvertised'), []);
  });

  rule('compaction-status-order', () => {
    const caps = { clientCaps: { session: { compaction: {} } } };
    const cu = (status: string, id = 'c1') => up({ sessionUpdate: 'compaction_update', compactionId: id, status });
    // Claude's order: in_progress, completed (with the summary), completed again.
    both(
      'compaction-status-order',
      [...open(caps), cu('in_progress'), cu('completed'), cu('in_progress')],
      [...open(caps), cu('in_progress'), cu('completed'), cu('completed')],
      8,
      'warning',
    );
    assert.equal(fired([...open(caps), cu('failed')], 'compaction-status-order').length, 1, 'ended without starting');
    assert.equal(fired([...open(caps), cu('in_progress'), cu('cancelled'), cu('completed')], 'compaction-status-order').length, 1);
    assert.deepEqual(fired([...open(caps), cu('in_progress'), cu('in_progress', 'c2'), cu('failed'), cu('completed', 'c2')], 'compaction-status-order'), []);
    // A session/load replay is history: a finished compaction may come back alone.
    const load = [C(req(3, 'session/load', { sessionId: 's', cwd: '/w', mcpServers: [] })), cu('completed')];
    assert.deepEqual(fired([...open({ ...caps, agentCaps: { loadSession: true } }), ...load], 'compaction-status-order'), []);
  });

  rule('compaction-unknown-id', () => {
    const caps = { clientCaps: { session: { compaction: {} } } };
    const chunk = up({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('sum') });
    both(
      'compaction-unknown-id',
      [...open(caps), chunk],
      [...open(caps), up({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' }), chunk],
      6,
      'warning',
    );
    // Without the capability it is also unadvertised.
    assert.equal(fired([...open(), chunk], 'capability-unadvertised').length, 1);
  });

  rule('response-unknown-id', () => {
    both('response-unknown-id', [...open(), A(res(99, {}))], [...open(), endTurn()], 6, 'error');
    // Ids are per direction: the agent's own request id 2 does not answer the client's prompt 2 twice.
    assert.deepEqual(fired([...open(), A(req(2, 'fs/read_text_file', { sessionId: 's', path: '/a' })), C(res(2, { content: '' })), endTurn()], 'response-unknown-id'), []);
  });

  rule('response-duplicate', () => {
    both(
      'response-duplicate',
      [...open(), endTurn(), endTurn()],
      [...open(), endTurn(), C(req(2, 'session/prompt', { sessionId: 's', prompt: [text('again')] })), endTurn()],
      7,
      'error',
    );
  });

  rule('stop-reason-invalid', () => {
    both('stop-reason-invalid', [...open(), endTurn('done')], [...open(), endTurn('max_tokens')], 6, 'error');
    assert.equal(fired([...open(), A(res(2, {}))], 'stop-reason-invalid').length, 1);
    // v2: a reserved name is a warning; `_vendor` reasons are fine.
    const v2 = (reason: string) => [...open({ version: 2 }), A(res(2, { messageId: 'u' })), up({ sessionUpdate: 'state_update', state: 'idle', stopReason: reason })];
    assert.deepEqual(
      fired(v2('timeout'), 'stop-reason-invalid').map((f) => f.severity),
      ['warning'],
    );
    assert.deepEqual(fired(v2('_acme_timeout'), 'stop-reason-invalid'), []);
  });

  rule('cancel-not-honoured', () => {
    const cancel = C(note('session/cancel', { sessionId: 's' }));
    both('cancel-not-honoured', [...open(), cancel, A(err(2, { code: -32603, message: 'aborted' }))], [...open(), cancel, endTurn('cancelled')], 7, 'error');
    assert.deepEqual(
      fired([...open(), cancel, endTurn('end_turn')], 'cancel-not-honoured').map((f) => f.severity),
      ['warning'],
    );
    assert.deepEqual(fired([...open(), A(err(2, { code: -32603, message: 'boom' }))], 'cancel-not-honoured'), []);
  });

  rule('error-object-invalid', () => {
    both('error-object-invalid', [...open(), A(err(2, { code: '500', message: 'x' }))], [...open(), A(err(2, { code: -32603, message: 'x', data: { detail: 1 } }))], 6, 'error');
    assert.equal(fired([...open(), A(err(2, 'boom'))], 'error-object-invalid').length, 1);
    assert.equal(fired([...open(), A(err(2, { code: 1.5 }))], 'error-object-invalid').length, 1);
  });

  const askCaps = { clientCaps: { elicitation: { form: {}, url: {} } } };
  const ask = (id: number, extra: Record<string, unknown>) => A(req(id, 'elicitation/create', { sessionId: 's', message: 'Which?', ...extra }));
  const flat = { type: 'object', properties: { q: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] } } };

  rule('elicitation-schema-unsupported', () => {
    const nested = { type: 'object', properties: { q: { type: 'object', properties: {} } } };
    both(
      'elicitation-schema-unsupported',
      [...open(askCaps), ask(4, { mode: 'form', requestedSchema: nested })],
      [...open(askCaps), ask(4, { mode: 'form', requestedSchema: flat })],
      6,
      'error',
    );
    assert.match(fired([...open(askCaps), ask(4, { mode: 'form', requestedSchema: nested })], 'elicitation-schema-unsupported')[0]!.message, /property 'q' has type "object"/);
  });

  rule('elicitation-unknown-id', () => {
    const url = ask(4, { mode: 'url', elicitationId: 'e1', url: 'https://x.test' });
    both(
      'elicitation-unknown-id',
      [...open(askCaps), url, A(note('elicitation/complete', { elicitationId: 'e2' }))],
      [...open(askCaps), url, A(note('elicitation/complete', { elicitationId: 'e1' }))],
      7,
      'error',
    );
  });

  rule('elicitation-tool-call-unknown', () => {
    const tool = up({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Ask' });
    both(
      'elicitation-tool-call-unknown',
      [...open(askCaps), tool, ask(4, { mode: 'form', requestedSchema: flat, toolCallId: 't9' })],
      [...open(askCaps), tool, ask(4, { mode: 'form', requestedSchema: flat, toolCallId: 't1' })],
      7,
      'warning',
    );
  });

  it('elicitation: an unadvertised mode is capability-unadvertised; params are schema-checked', () => {
    both(
      'capability-unadvertised',
      [...open({ clientCaps: { elicitation: { form: {} } } }), ask(4, { mode: 'url', elicitationId: 'e', url: 'https://x.test' })],
      [...open(askCaps), ask(4, { mode: 'url', elicitationId: 'e', url: 'https://x.test' })],
      6,
      'error',
    );
    assert.equal(fired([...open(askCaps), ask(4, { mode: 'form' })], 'invalid-message').length, 1, 'a form without requestedSchema');
    assert.deepEqual(check([...open(askCaps), ask(4, { mode: 'form', requestedSchema: flat }), C(res(4, { action: 'accept', content: { q: 'a' } }))]), []);
  });

  rule('directory-not-absolute', () => {
    const opened = (dirs: string[]) => [
      C(req(0, 'initialize', { protocolVersion: 1, clientCapabilities: {} })),
      A(res(0, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { additionalDirectories: {}, list: {} } } })),
      C(req(1, 'session/new', { cwd: '/w', additionalDirectories: dirs, mcpServers: [] })),
    ];
    both('directory-not-absolute', opened(['/w2', 'lib']), opened(['/w2', 'C:\\x', 'd:/y', '\\\\srv\\share']), 3, 'error');
    const list = (info: Record<string, unknown>) => [...open(), endTurn(), C(req(5, 'session/list', {})), A(res(5, { sessions: [{ sessionId: 's', cwd: '/w', ...info }] }))];
    both('directory-not-absolute', list({ additionalDirectories: ['../x'] }), list({ additionalDirectories: ['/x'] }), 8, 'error');
    assert.equal(fired(list({ cwd: 'w' }), 'directory-not-absolute').length, 1, 'a relative cwd too');
  });

  rule('plan-unknown-id', () => {
    const planCaps = { clientCaps: { plan: {} } };
    const plan = up({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [] } });
    const removed = (planId: string) => up({ sessionUpdate: 'plan_removed', planId });
    both('plan-unknown-id', [...open(planCaps), plan, removed('p2')], [...open(planCaps), plan, removed('p1')], 7, 'warning');
    assert.equal(fired([...open(planCaps), plan, removed('p1'), removed('p1')], 'plan-unknown-id').length, 1, 'removed twice');
    assert.equal(fired([...open(planCaps), plan, removed('__proto__')], 'plan-unknown-id').length, 1, 'a planId is data');
    assert.deepEqual(check([...open(planCaps), plan, up({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p2', content: '# x' } }), removed('p1')]), []);
  });

  it('plan_update and plan_removed need clientCapabilities.plan on v1', () => {
    const plan = up({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p1', entries: [] } });
    both('capability-unadvertised', [...open(), plan], [...open({ clientCaps: { plan: {} } }), plan], 6, 'error');
    assert.equal(fired([...open(), up({ sessionUpdate: 'plan_removed', planId: 'p1' })], 'capability-unadvertised').length, 1);
  });

  it('every rule has a test here', () => {
    assert.deepEqual(
      RULE_IDS.filter((r) => !tested.has(r)),
      [],
    );
  });
});

describe('conformance checker', () => {
  it('a clean v1 session has no findings', () => {
    const recs = [
      ...open({ agentCaps: { loadSession: true } }),
      up({ sessionUpdate: 'agent_thought_chunk', messageId: 't1', content: text('hm') }),
      up({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read', status: 'pending' }),
      A(req(2, 'fs/read_text_file', { sessionId: 's', path: '/w/a' })),
      C(res(2, { content: 'x' })),
      up({ sessionUpdate: 'tool_call_update', toolCallId: 'r', status: 'completed' }),
      up({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: text('done') }),
      endTurn(),
      up({ sessionUpdate: 'available_commands_update', availableCommands: [] }),
      A(note('_vendor/telemetry', {})),
    ];
    assert.deepEqual(check(recs), []);
  });

  it('findings come back sorted by line', () => {
    const early = [C(req(1, 'session/new', { cwd: '/w', mcpServers: [] })), up({ sessionUpdate: 'plan', entries: [] }), A(res(9, {})), A(res(1, { sessionId: 's' }))];
    assert.deepEqual(
      check(early).map((f) => f.line),
      [2, 3],
    );
  });
});
