// Writes the session/load replay vectors (test/conformance/vectors/v*-replay-*): one live turn shaped like
// the real agents' (a thought, chunked markdown, a read, an edit with a diff, a shell command titled with
// the command, a second thought between two messages), then a session/load that replays it in the shapes
// of src/node/demoAgent/replay.ts. The expected transcript is the live one: nothing twice, nothing lost,
// ids taken from the replay where it has them. Run: npx tsx test/conformance/makeReplayVectors.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../src/common/store';
import type { Entry } from '../../src/common/store/model';
import { replayHistory, type ReplayShape, type Update } from '../../src/node/demoAgent/replay';

const dir = path.join(import.meta.dirname, 'vectors');
const SID = 'sess_r';
const PROMPT = 'Read notes.txt, then update it, then run a shell command.';

type Line = { dir: 'client->agent' | 'agent->client'; msg: unknown };

/** The live turn's updates; `ids` says whether the agent sends messageIds (opencode does, claude does not). */
function liveTurn(ids: boolean): Update[] {
  const chunks = (kind: string, id: string, pieces: string[]): Update[] =>
    pieces.map((text) => ({ sessionUpdate: kind, ...(ids ? { messageId: id } : {}), content: { type: 'text', text } }));
  return [
    ...chunks('agent_thought_chunk', 'th1', ['The user wants a read → ', 'edit → verify ', 'cycle.']),
    ...chunks('agent_message_chunk', 'm1', ["I'll read `no", 'tes.txt` first. ', '日本語 ✅']),
    { sessionUpdate: 'tool_call', toolCallId: 'call_read', title: 'Read notes.txt', kind: 'read', status: 'pending', locations: [{ path: '/ws/notes.txt' }], rawInput: { path: '/ws/notes.txt' } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'call_read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'hello' } }] },
    ...chunks('agent_message_chunk', 'm2', ['Now I', "'ll edit the file."]),
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_edit',
      title: 'Edit notes.txt',
      kind: 'edit',
      status: 'pending',
      content: [{ type: 'diff', path: '/ws/notes.txt', oldText: 'hello\n', newText: 'hello\nupdated\n' }],
      locations: [{ path: '/ws/notes.txt' }],
    },
    { sessionUpdate: 'tool_call_update', toolCallId: 'call_edit', status: 'completed' },
    ...chunks('agent_message_chunk', 'm3', ['Let me run a shell command.']),
    { sessionUpdate: 'tool_call', toolCallId: 'call_run', title: 'cat notes.txt && echo ok', kind: 'execute', status: 'pending', rawInput: { command: 'cat notes.txt && echo ok' } },
    { sessionUpdate: 'tool_call_update', toolCallId: 'call_run', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'hello\nupdated\nok\n' } }], rawOutput: { output: 'hello\nupdated\nok\n' } },
    ...chunks('agent_message_chunk', 'm4', ["Done! Here's", ' what I did:']),
    ...chunks('agent_thought_chunk', 'th2', ['Summarize ', 'for the user.']),
    ...chunks('agent_message_chunk', 'm5', ['\n\n1. **Read** it\n', '2. **Edited** it\n3. **Ran** a command 🎉']),
  ];
}

const rpc = (id: number, method: string, params: unknown): Line => ({ dir: 'client->agent', msg: { jsonrpc: '2.0', id, method, params } });
const result = (id: number, r: unknown): Line => ({ dir: 'agent->client', msg: { jsonrpc: '2.0', id, result: r } });
const notify = (u: Update): Line => ({ dir: 'agent->client', msg: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: SID, update: u } } });

function capture(version: number, live: Update[], replay: Update[]): { lines: Line[]; liveLength: number } {
  const lines: Line[] = [
    rpc(1, 'initialize', { protocolVersion: version, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } }),
    result(1, { protocolVersion: version, agentCapabilities: { loadSession: true } }),
    rpc(2, 'session/new', { cwd: '/ws', mcpServers: [] }),
    result(2, { sessionId: SID }),
    rpc(3, 'session/prompt', { sessionId: SID, prompt: [{ type: 'text', text: PROMPT }] }),
    ...live.map(notify),
    result(3, { stopReason: 'end_turn' }),
  ];
  const liveLength = lines.length;
  lines.push(rpc(4, 'session/load', { sessionId: SID, cwd: '/ws', mcpServers: [] }), ...replay.map(notify), result(4, {}));
  return { lines, liveLength };
}

/** The fields a vector pins for an entry. */
function projection(e: Entry): Record<string, unknown> {
  if (e.kind !== 'tool_call') return { kind: e.kind, messageId: e.messageId, content: e.content };
  return { kind: e.kind, toolCallId: e.toolCallId, title: e.title, toolKind: e.toolKind, status: e.status, content: e.content, locations: e.locations, rawInput: e.rawInput };
}

function reduce(lines: readonly Line[]): Record<string, unknown>[] {
  const store = new MessageStore();
  for (const l of lines) store.ingest(l.dir, l.msg);
  return (store.session(SID)?.entries ?? []).map(projection);
}

function write(name: string, description: string, lines: readonly Line[], entries: readonly Record<string, unknown>[]): void {
  writeFileSync(path.join(dir, `${name}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(path.join(dir, `${name}.expected.json`), JSON.stringify({ description, sessions: [{ sessionId: SID, entries }], errors: 0 }, null, 2) + '\n');
}

/** A v1 vector: the live transcript, with each entry's id renamed as the replay renames it. */
function v1(name: string, description: string, ids: boolean, shapes: ReplayShape[], rename: (id: string | null, e: Record<string, unknown>) => string | null): void {
  const live = liveTurn(ids);
  const history: Update[] = [{ sessionUpdate: 'user_message_chunk', ...(ids ? { messageId: 'u1' } : {}), content: { type: 'text', text: PROMPT } }, ...live];
  const { lines, liveLength } = capture(1, live, replayHistory(history, shapes));
  const entries = reduce(lines.slice(0, liveLength)).map((e) => {
    const key = e['kind'] === 'tool_call' ? 'toolCallId' : 'messageId';
    const id = e[key];
    return { ...e, [key]: rename(typeof id === 'string' ? id : null, e) };
  });
  write(name, description, lines, entries);
}

const same = (id: string | null, e: Record<string, unknown>) => (id === null && e['kind'] === 'user_message' ? 'u1' : id);

v1('v1-31-replay-drops-thoughts', 'A session/load replay without the thoughts (and without ids, like the live stream) matches the replayed messages and tool calls to the shown ones past the skipped thoughts: nothing is appended again, the thoughts stay.', false, ['no-thoughts'], (id) => id);
v1('v1-32-replay-merges-chunks', 'A replay that sends each message as one chunk, and two messages that a dropped thought separated live as one, confirms the shown messages instead of appending the merged one.', false, ['no-thoughts', 'merged'], (id) => id);
v1('v1-33-replay-lossy-tool-calls', "A replay whose tool calls have other titles ('bash', 'edit'), text instead of a diff and no locations or rawInput never downgrades the shown tool calls: the diff stays a diff, the shell card keeps the command as its title.", true, ['lossy-tools'], same);
v1('v1-34-replay-drops-ids', 'A replay without messageIds (the live stream had them) and without thoughts matches by kind and text; the entries keep their ids and keys.', true, ['no-ids', 'no-thoughts'], (id) => id);
v1('v1-35-replay-new-ids', 'A replay that mints new message and tool-call ids matches by kind and text; the matched entries take the new ids (later updates use them), the skipped thoughts keep theirs.', true, ['new-ids', 'no-thoughts'], (id, e) =>
  e['kind'] === 'agent_thought' ? id : `r-${id ?? 'u1'}`,
);
v1('v1-36-replay-all-shapes', 'The reload of issue 9: a replay without thoughts or ids, with merged chunks and lossy tool calls, shows nothing twice and keeps every diff, title, location and raw input.', true, ['no-thoughts', 'merged', 'no-ids', 'lossy-tools'], (id) => id);

// The replay has other text than was shown and one more message: from the first difference on the
// replay's text is used, and what the transcript never had is appended.
{
  const live = liveTurn(false);
  const history: Update[] = [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: PROMPT } }, ...live];
  const replay = replayHistory(history, ['no-thoughts', 'merged']).map((u) =>
    u['content'] && JSON.stringify(u['content']).includes('Done!') ? { ...u, content: { type: 'text', text: "Done! Here's what I changed: the notes." } } : u,
  );
  replay.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Session restored.' } });
  const { lines, liveLength } = capture(1, live, replay);
  const entries = reduce(lines.slice(0, liveLength));
  const done = entries.findIndex((e) => JSON.stringify(e['content']).includes('Done!'));
  entries[done] = { ...entries[done], content: [{ type: 'text', text: "Done! Here's what I changed: the notes." }] };
  entries.push({ kind: 'agent_thought', messageId: null, content: [{ type: 'text', text: 'Session restored.' }] });
  write('v1-37-replay-differs', "A replayed message whose text differs from the shown one (here it also leaves out the message after it) keeps the part that matched and takes the replay's text from the first difference; a replayed thought the transcript never had is appended.", lines, entries);
}

// v2: the replay sends whole-message upserts under new ids, no thoughts, and lossy tool calls.
{
  const live = liveTurn(true);
  const history: Update[] = [{ sessionUpdate: 'user_message_chunk', messageId: 'u1', content: { type: 'text', text: PROMPT } }, ...live];
  const replay = replayHistory(history, ['no-thoughts', 'merged', 'new-ids', 'lossy-tools']).map((u): Update => {
    const kind = /^(user_message|agent_message|agent_thought)_chunk$/.exec(u.sessionUpdate)?.[1];
    return kind ? { sessionUpdate: kind, messageId: u['messageId'], content: [u['content']] } : u;
  });
  const { lines, liveLength } = capture(2, live, replay);
  const entries = reduce(lines.slice(0, liveLength)).map((e) => {
    if (e['kind'] === 'agent_thought') return e;
    if (e['kind'] === 'tool_call') return { ...e, toolCallId: `r-${String(e['toolCallId'])}` };
    return { ...e, messageId: `r-${typeof e['messageId'] === 'string' ? e['messageId'] : 'u1'}` };
  });
  write('v2-11-replay-upserts', 'A v2 replay of whole-message upserts under new ids, without thoughts and with lossy tool calls, matches the shown messages by kind and text: nothing twice, the matched entries take the new ids, no diff or title is lost.', lines, entries);
}
