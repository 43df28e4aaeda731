/**
 * What the Changes review's unit tests are fed: capture lines of a chat whose agent edits files under
 * /w (a session, updates, edit tool calls with a diff), reduced by a real store; and a review over an
 * in-memory disk. One builder, so the turnEntries, turnReview, follow, subagentTab, rewind and toolCards
 * tests do not each spell them out.
 */
import { MessageStore } from '../../../src/common/store';
import { ChangeReview, type ReviewPorts } from '../../../src/common/changes/review';

/** A chat's capture lines as a test writes them, fed to a store as they are made. */
export function editCapture() {
  let seq = 0;
  const store = new MessageStore({ now: () => 0 });
  const line = (dir: string, msg: object) => JSON.stringify({ seq: ++seq, t_ms: seq, dir, msg });
  const update = (sessionId: string, u: object) => line('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
  /** A completed edit tool call of /w/`file`, as a `tool_call` update. */
  const edit = (id: string, file: string) => ({
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: `Edit ${file}`,
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: `/w/${file}`, oldText: 'a\n', newText: 'b\n' }],
  });
  const feed = (...lines: string[]) => lines.forEach((l) => store.ingestLine(l, seq));
  /** session/new in /w and its answer: session `sessionId`. */
  const newSession = (sessionId: string) => [
    line('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }),
    line('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId } }),
  ];
  /** Subagent `child` of `parent` reported in `state` (its card on the parent, with `title` the first time). */
  const subagent = (parent: string, child: string, state: object, title?: string) =>
    update(parent, { sessionUpdate: 'subagent_update', sessionId: child, ...(title === undefined ? {} : { title }), state });
  return { store, line, update, edit, feed, newSession, subagent };
}

/** A review whose files are `disk` (path -> text; a restore writes or deletes there), paths under /w shown relative. */
export function memoryReview(disk: Map<string, string>, over: Partial<ReviewPorts> = {}, files: Partial<ReviewPorts['files']> = {}): ChangeReview {
  return new ChangeReview(memoryPorts(disk, over, files));
}

function memoryPorts(disk: Map<string, string>, over: Partial<ReviewPorts> = {}, files: Partial<ReviewPorts['files']> = {}): ReviewPorts {
  return {
    files: {
      read: async (p) => disk.get(p) ?? null,
      restore: async (p, text) => void (text === null ? disk.delete(p) : disk.set(p, text)),
      mayRestore: async () => true,
      ...files,
    },
    agentName: () => 'Demo',
    canonical: (p) => p,
    shownPath: (p) => p.replace(/^\/w\//, ''),
    openDiff: () => undefined,
    explain: () => undefined,
    save: () => undefined,
    log: () => undefined,
    ...over,
  };
}
