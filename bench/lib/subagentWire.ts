// The wire traffic of one Claude turn with subagents, synthesized in the shapes the recording shows
// (test/fixtures/transcripts/claude-next-subagent.jsonl; ../shared/agents/README.md, "Subagents"), for
// bench/subagents.bench.ts. Lines are built once, before anything is timed, so the bench times what the
// host does with a line, not how the bench makes it.

/** A message of the recording's kind: the direction and the JSON line the transport reads. */
export interface WireLine {
  readonly dir: 'client->agent' | 'agent->client';
  readonly line: string;
}

/** One child as the parent announces it: Claude's agent id ('a' + 16 hex), the Agent call's tool_use id, the child's own provider messageId. */
export interface Child {
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly messageId: string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Deterministic ids of the recording's lengths: the same run every time, so every run measures the same bytes. */
function idMaker(seed: number): (alphabet: string, n: number) => string {
  let s = seed >>> 0;
  return (alphabet, n) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      // The high bits: an LCG's low bits repeat with a short period (ids would collide).
      out += alphabet[(s >>> 16) % alphabet.length] ?? '0';
    }
    return out;
  };
}

export function children(n: number): Child[] {
  const id = idMaker(88);
  return Array.from({ length: n }, () => ({
    sessionId: `a${id('0123456789abcdef', 16)}`,
    toolUseId: `toolu_01${id(BASE62, 22)}`,
    messageId: `msg_01${id(BASE62, 22)}`,
  }));
}

// Text like the recording's chunks: ASCII with curly quotes, a check mark and CJK (two-byte strings in V8).
const SOURCE = Array.from('Reading `notes.txt` for the parent agent. Report: notes.txt has one line, “hello”. ✅ 日本語 — then the next file. ');

/** The `i`th chunk's text: 1–5 code points (never a split surrogate pair), cycling through SOURCE. */
export function chunkText(i: number): string {
  const len = 1 + (i % 5);
  const start = (i * 3) % SOURCE.length;
  let t = '';
  for (let k = 0; k < len; k++) t += SOURCE[(start + k) % SOURCE.length] ?? ' ';
  return t;
}

const notify = (sessionId: string, update: Record<string, unknown>): WireLine => ({
  dir: 'agent->client',
  line: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }),
});
const ask = (id: number, method: string, params: unknown): WireLine => ({ dir: 'client->agent', line: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
const answer = (id: number, result: unknown): WireLine => ({ dir: 'agent->client', line: JSON.stringify({ jsonrpc: '2.0', id, result }) });

/** initialize (v1, as the recording negotiates), session/new answered with `sessionId`, and a prompt left pending for the turn. */
export function openSession(sessionId: string): WireLine[] {
  return [
    ask(0, 'initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, subagents: {} } }),
    answer(0, { protocolVersion: 1, agentCapabilities: { loadSession: true } }),
    ask(1, 'session/new', { cwd: '/ws', mcpServers: [] }),
    answer(1, { sessionId }),
    ask(2, 'session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Use eight subagents.' }] }),
  ];
}

/** What Claude sends when the parent starts a child: the announcement and the task, on the parent and again on the child. */
export function announce(parent: string, c: Child, i: number): WireLine[] {
  const task = [{ type: 'text', text: `Read part ${i + 1} of notes.txt and report it in one sentence. (subagent task)` }];
  return [
    notify(parent, {
      sessionUpdate: 'subagent_update',
      sessionId: c.sessionId,
      title: `Read part ${i + 1}`,
      description: 'general-purpose',
      capabilities: { cancel: {} },
      state: { state: 'running' },
    }),
    notify(parent, {
      sessionUpdate: 'session_message',
      messageId: c.toolUseId,
      senderSessionId: parent,
      recipientSessionId: c.sessionId,
      content: task,
      recipientMessageId: c.toolUseId,
    }),
    notify(c.sessionId, {
      sessionUpdate: 'session_message',
      messageId: c.toolUseId,
      senderSessionId: parent,
      recipientSessionId: c.sessionId,
      content: task,
      senderMessageId: c.toolUseId,
    }),
  ];
}

/** The child is done: its state on the parent, and its reply (on the parent only). */
export function finish(parent: string, c: Child): WireLine[] {
  return [
    notify(parent, { sessionUpdate: 'subagent_update', sessionId: c.sessionId, state: { state: 'idle', stopReason: 'end_turn' } }),
    notify(parent, {
      sessionUpdate: 'session_message',
      messageId: `${c.toolUseId}:reply`,
      senderSessionId: c.sessionId,
      recipientSessionId: parent,
      content: [{ type: 'text', text: 'Report: done. ✅' }],
    }),
  ];
}

/**
 * A child's text chunk as Claude sends it (the recording's key order): `_meta.claudeCode.parentToolUseId`
 * names the Agent call. `meta: false` leaves `_meta` out (the shape the parent's own chunks have).
 */
export function chunk(sessionId: string, messageId: string, toolUseId: string, text: string, meta = true): WireLine {
  return notify(
    sessionId,
    meta
      ? { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, _meta: { claudeCode: { parentToolUseId: toolUseId } }, messageId }
      : { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId },
  );
}

/** The agent's answer to the turn's prompt (request 2 of `openSession`). */
export function promptEnd(): WireLine {
  return answer(2, { stopReason: 'end_turn' });
}
