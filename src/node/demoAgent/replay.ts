/**
 * How the demo agent replays a session on `session/load`. Real agents do not replay the stream they
 * sent live: they rebuild it from what they stored, and the result differs in ways a client must
 * survive without showing history twice or losing what it showed (issue 9 §1.1). Each shape is one such
 * difference, seen in published agents; they combine (ACP_DEMO_REPLAY="no-thoughts,merged,lossy-tools").
 * - `no-thoughts`  thought chunks are not replayed.
 * - `merged`       a message comes back as one chunk; with `no-ids`, messages that a dropped thought or
 *                  nothing separated come back as one.
 * - `no-ids`       chunks carry no `messageId` (even when the live stream had them).
 * - `new-ids`      message and tool-call ids are minted afresh.
 * - `lossy-tools`  a tool call comes back as a `tool_call` titled with the tool's name ("bash", "edit")
 *                  and one final `tool_call_update` whose content is text only (a diff becomes "Edit
 *                  applied."), without locations, rawInput or rawOutput.
 */
export const REPLAY_SHAPES = ['no-thoughts', 'merged', 'no-ids', 'new-ids', 'lossy-tools'] as const;
export type ReplayShape = (typeof REPLAY_SHAPES)[number];

export type Update = { sessionUpdate: string } & Record<string, unknown>;

/** Parses a comma-separated list of shapes; unknown names are reported, not fatal. */
export function parseReplayShapes(spec: string | undefined, warn: (message: string) => void = () => undefined): ReplayShape[] {
  const out: ReplayShape[] = [];
  for (const name of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const shape = REPLAY_SHAPES.find((s) => s === name);
    if (shape) out.push(shape);
    else warn(`unknown replay shape '${name}' ignored (known: ${REPLAY_SHAPES.join(', ')})`);
  }
  return out;
}

const CHUNKS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']);
const TOOL_NAMES: Record<string, string> = { read: 'read', edit: 'edit', execute: 'bash', search: 'grep', fetch: 'webfetch' };

/** The updates a `session/load` sends for this history, in the given shapes. */
export function replayHistory(history: readonly Update[], shapes: readonly ReplayShape[]): Update[] {
  const has = (s: ReplayShape) => shapes.includes(s);
  let out: Update[] = history.map((u) => ({ ...u }));
  if (has('lossy-tools')) out = lossyTools(out);
  if (has('no-thoughts')) out = out.filter((u) => u.sessionUpdate !== 'agent_thought_chunk');
  if (has('no-ids') || has('new-ids')) {
    out = out.map((u) => {
      const v: Update = { ...u };
      if (CHUNKS.has(u.sessionUpdate) && typeof u['messageId'] === 'string') {
        if (has('no-ids')) delete v['messageId'];
        else v['messageId'] = `r-${u['messageId']}`;
      }
      if (has('new-ids') && typeof u['toolCallId'] === 'string') v['toolCallId'] = `r-${u['toolCallId']}`;
      return v;
    });
  }
  if (has('merged')) out = merged(out);
  return out;
}

/** Consecutive chunks of one message (same kind, same id or none) become one chunk. */
function merged(updates: readonly Update[]): Update[] {
  const out: Update[] = [];
  for (const u of updates) {
    const last = out[out.length - 1];
    const text = textOf(u);
    if (last && CHUNKS.has(u.sessionUpdate) && last.sessionUpdate === u.sessionUpdate && last['messageId'] === u['messageId'] && text !== null && textOf(last) !== null) {
      out[out.length - 1] = { ...last, content: { type: 'text', text: `${textOf(last) ?? ''}${text}` } };
    } else out.push(u);
  }
  return out;
}

function textOf(u: Update): string | null {
  const c = u['content'];
  if (!c || typeof c !== 'object' || Array.isArray(c)) return null;
  const r = c as Record<string, unknown>;
  return r['type'] === 'text' && typeof r['text'] === 'string' ? r['text'] : null;
}

/** Every tool call becomes a named `tool_call` plus one final text-only update, where the tool call started. */
function lossyTools(updates: readonly Update[]): Update[] {
  const final = new Map<string, Record<string, unknown>>();
  for (const u of updates) {
    const id = u['toolCallId'];
    if ((u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && typeof id === 'string') {
      const prev = u.sessionUpdate === 'tool_call' ? {} : (final.get(id) ?? {});
      const next: Record<string, unknown> = { ...prev };
      for (const [k, v] of Object.entries(u)) if (v !== undefined && v !== null) next[k] = v;
      final.set(id, next);
    }
  }
  const out: Update[] = [];
  const done = new Set<string>();
  for (const u of updates) {
    const id = u['toolCallId'];
    if ((u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') || typeof id !== 'string') {
      out.push(u);
      continue;
    }
    if (done.has(id)) continue;
    done.add(id);
    const f = final.get(id) ?? {};
    const kind = typeof f['kind'] === 'string' ? f['kind'] : 'other';
    out.push({ sessionUpdate: 'tool_call', toolCallId: id, title: TOOL_NAMES[kind] ?? kind, kind, status: 'pending' });
    out.push({ sessionUpdate: 'tool_call_update', toolCallId: id, status: typeof f['status'] === 'string' ? f['status'] : 'completed', content: textContent(f) });
  }
  return out;
}

/** A tool call's content as the text a lossy replay keeps: text items as they are, a diff as one line, output as text. */
function textContent(f: Record<string, unknown>): unknown[] {
  const items = Array.isArray(f['content']) ? (f['content'] as unknown[]) : [];
  const text = (t: string) => ({ type: 'content', content: { type: 'text', text: t } });
  const out: unknown[] = [];
  for (const c of items) {
    const r = c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
    if (r['type'] === 'content') out.push(c);
    else if (r['type'] === 'diff') out.push(text('Edit applied.'));
  }
  const raw = f['rawOutput'];
  const output = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)['output'] : undefined;
  if (typeof output === 'string' && output !== '') out.push(text(output));
  return out;
}
