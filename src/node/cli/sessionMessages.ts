/**
 * Messages between sessions (`session_message` upserts, `session_message_chunk`s) for `cli run`: the line a
 * message makes ("[to subagent X] …", "[from subagent X] …") and the session whose depth it is printed at
 * (the parent's: the line reads as part of its transcript). Claude sends a prompt twice, the parent's
 * outgoing view and the child's incoming view, linked by recipientMessageId / senderMessageId: only the
 * first view seen is printed. Route fields are patches (omitted = unchanged, null = cleared).
 */
import { zSessionMessage, zSessionMessageChunk } from '../../common/protocol/updates';
import type { SessionTree } from './sessionTree';

interface View {
  sender?: string;
  recipient?: string;
  senderMessageId?: string;
  recipientMessageId?: string;
  /** The text an upsert printed last (an upsert repeating it prints nothing). */
  printed: string;
}

type RouteField = 'sender' | 'recipient' | 'senderMessageId' | 'recipientMessageId';

export interface MessageLine {
  /** The session whose depth the line is printed at. */
  readonly at: string;
  readonly prefix: string;
  readonly text: string;
  /** The message view (a chunk continues its view's line while nothing else was printed in between). */
  readonly key: string;
}

export class SessionMessages {
  private readonly views = new Map<string, View>();
  /** Views whose twin (the same message in the other session's transcript) was printed. */
  private readonly twinShown = new Set<string>();

  constructor(private readonly tree: SessionTree) {}

  /** An upsert on `on`: its whole text when the content is new, or null. */
  upsert(on: string, update: unknown): MessageLine | null {
    const p = zSessionMessage.safeParse(update);
    if (!p.success) return null;
    const u = p.data;
    const key = viewKey(on, u.messageId);
    const view = this.view(key);
    patch(view, 'sender', u.senderSessionId);
    patch(view, 'recipient', u.recipientSessionId);
    patch(view, 'senderMessageId', u.senderMessageId);
    patch(view, 'recipientMessageId', u.recipientMessageId);
    if (this.twinShown.has(key) || !u.content || u.content.length === 0) return null;
    const text = u.content.map(blockText).join('');
    if (text === view.printed) return null;
    view.printed = text;
    return this.shown(on, key, view, text);
  }

  /** A chunk on `on`: its text, to be appended to the message's line. */
  chunk(on: string, update: unknown): MessageLine | null {
    const p = zSessionMessageChunk.safeParse(update);
    if (!p.success) return null;
    const key = viewKey(on, p.data.messageId);
    const text = blockText(p.data.content);
    if (this.twinShown.has(key) || text === '') return null;
    return this.shown(on, key, this.view(key), text);
  }

  private view(key: string): View {
    let v = this.views.get(key);
    if (!v) {
      v = { printed: '' };
      this.views.set(key, v);
    }
    return v;
  }

  private shown(on: string, key: string, v: View, text: string): MessageLine {
    if (v.recipient !== undefined && v.recipientMessageId !== undefined) this.twinShown.add(viewKey(v.recipient, v.recipientMessageId));
    if (v.sender !== undefined && v.senderMessageId !== undefined) this.twinShown.add(viewKey(v.sender, v.senderMessageId));
    return { ...this.place(on, v), text, key };
  }

  private place(on: string, v: View): { at: string; prefix: string } {
    const { sender: s, recipient: r } = v;
    if (s !== undefined && r !== undefined) {
      if (this.tree.parentOf(r) === s) return { at: s, prefix: `[to subagent ${this.tree.label(r)}]` };
      if (this.tree.parentOf(s) === r) return { at: r, prefix: `[from subagent ${this.tree.label(s)}]` };
    }
    return { at: on, prefix: s !== undefined && s !== on ? `[message from ${this.tree.label(s)}]` : '[message]' };
  }
}

function viewKey(sessionId: string, messageId: string): string {
  return JSON.stringify([sessionId, messageId]);
}

function patch(v: View, field: RouteField, value: string | null | undefined): void {
  if (typeof value === 'string') v[field] = value;
  else if (value === null) delete v[field];
}

function blockText(b: { readonly type: string }): string {
  return b.type === 'text' && 'text' in b && typeof b.text === 'string' ? b.text : `[${b.type}]`;
}
