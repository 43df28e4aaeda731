/**
 * Did a prompt sent just before the agent died reach it? The only evidence is the agent's own record:
 * when the session is loaded again, its replay repeats the user messages it took. The prompt landed
 * when a replayed user message carries its id (v2), or repeats its text (agents may wrap the text in
 * context of their own, so containment counts). No evidence (nothing replayed, a resume without
 * replay) means not known to have landed: never resend on a guess, ask the user.
 */

export interface ReplayedUserMessage {
  readonly messageId: string | null;
  readonly text: string;
}

export interface SentPrompt {
  readonly text: string;
  /** The id the agent gave the accepted message (v2 `session/prompt` response), when it answered before dying. */
  readonly messageId?: string | null;
}

const normal = (s: string) => s.replace(/\s+/g, ' ').trim();

export function promptLanded(sent: SentPrompt, replayed: readonly ReplayedUserMessage[]): boolean {
  if (sent.messageId && replayed.some((m) => m.messageId === sent.messageId)) return true;
  const text = normal(sent.text);
  return text.length > 0 && replayed.some((m) => normal(m.text).includes(text));
}

/**
 * Collects the user messages of one session from the agent's `session/update`s (v1 chunks, joined while
 * they continue one message; v2 whole messages), read tolerantly: this is evidence, not the transcript.
 */
export class ReplayedUserMessages {
  private readonly list: { messageId: string | null; text: string }[] = [];
  private open = false;

  constructor(private readonly sessionId: string) {}

  observe(msg: unknown): void {
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as { method?: unknown; params?: { sessionId?: unknown; update?: { sessionUpdate?: unknown; messageId?: unknown; content?: unknown } } };
    const u = m.params?.update;
    if (m.method !== 'session/update' || m.params?.sessionId !== this.sessionId || !u) return;
    const id = typeof u.messageId === 'string' ? u.messageId : null;
    const text = textOf(u.content);
    const last = this.list.at(-1);
    if (u.sessionUpdate === 'user_message_chunk') {
      if (this.open && last && (id === null || last.messageId === null || last.messageId === id)) {
        last.text += text;
        last.messageId ??= id;
      } else this.list.push({ messageId: id, text });
      this.open = true;
    } else if (u.sessionUpdate === 'user_message') {
      this.list.push({ messageId: id, text });
      this.open = false;
    } else this.open = false;
  }

  messages(): readonly ReplayedUserMessage[] {
    return this.list;
  }
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) =>
      typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '',
    )
    .join('');
}

/** Updates that belong to a turn's work (not session state the agent may send at any time, such as commands). */
const TURN_UPDATES: ReadonlySet<unknown> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'user_message',
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'tool_call_content_chunk',
  'plan',
  'plan_update',
]);

/**
 * Whether a message from the agent shows it is working on a turn (so a prompt sent before it was taken):
 * a turn's content, or a request of its own (a permission, a file, a terminal). A response or a state
 * update (available commands, a title) could belong to anything and proves nothing.
 */
export function showsTurnWork(msg: unknown): boolean {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as { method?: unknown; id?: unknown; params?: { update?: { sessionUpdate?: unknown } } };
  if (m.method === 'session/update') return TURN_UPDATES.has(m.params?.update?.sessionUpdate);
  return typeof m.method === 'string' && m.id !== undefined;
}
