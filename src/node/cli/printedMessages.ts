/**
 * Messages between sessions (the store's `session_message` entries, with their `route`) for `cli run`: the
 * line a message makes ("[to subagent X] …", "[from subagent X] …") and the session whose depth it is
 * printed at (the parent's: the line reads as part of its transcript). Claude sends a prompt twice, the
 * parent's outgoing view and the child's incoming view, linked by recipientMessageId / senderMessageId:
 * only the first view seen is printed.
 */
import type { MessageEntry } from '../../common/store/model';
import { shownText } from './lineText';
import type { PrintedTree } from './printedTree';

export interface MessageLine {
  /** The session whose depth the line is printed at. */
  readonly at: string;
  readonly prefix: string;
  readonly text: string;
  /** The message view (a chunk continues its view's line while nothing else was printed in between). */
  readonly key: string;
}

type Route = NonNullable<MessageEntry['route']>;

export class PrintedMessages {
  /** The text a whole update printed last, by view (one repeating it prints nothing). */
  private readonly printed = new Map<string, string>();
  /** Views whose twin (the same message in the other session's transcript) was printed. */
  private readonly twinShown = new Set<string>();

  constructor(private readonly tree: PrintedTree) {}

  /** A whole update of `e` on `on` that sent content: its whole text when it is new, or null. */
  upsert(on: string, e: MessageEntry): MessageLine | null {
    const key = viewKey(on, e.messageId);
    if (this.twinShown.has(key) || e.content.length === 0) return null;
    const text = e.content.map(shownText).join('');
    if (text === (this.printed.get(key) ?? '')) return null;
    this.printed.set(key, text);
    return this.shown(on, key, e.route, text);
  }

  /** A chunk of `e` on `on` that added `text`, to be appended to the message's line. */
  chunk(on: string, e: MessageEntry, text: string): MessageLine | null {
    const key = viewKey(on, e.messageId);
    if (this.twinShown.has(key) || text === '') return null;
    return this.shown(on, key, e.route, text);
  }

  private shown(on: string, key: string, route: Route | undefined, text: string): MessageLine {
    const r = route ?? { senderSessionId: null, recipientSessionId: null, senderMessageId: null, recipientMessageId: null };
    if (r.recipientSessionId !== null && r.recipientMessageId !== null) this.twinShown.add(viewKey(r.recipientSessionId, r.recipientMessageId));
    if (r.senderSessionId !== null && r.senderMessageId !== null) this.twinShown.add(viewKey(r.senderSessionId, r.senderMessageId));
    return { ...this.place(on, r.senderSessionId, r.recipientSessionId), text, key };
  }

  private place(on: string, s: string | null, r: string | null): { at: string; prefix: string } {
    if (s !== null && r !== null) {
      if (this.tree.parentOf(r) === s) return { at: s, prefix: `[to subagent ${this.tree.label(r)}]` };
      if (this.tree.parentOf(s) === r) return { at: r, prefix: `[from subagent ${this.tree.label(s)}]` };
    }
    return { at: on, prefix: s !== null && s !== on ? `[message from ${this.tree.label(s)}]` : '[message]' };
  }
}

function viewKey(sessionId: string, messageId: string | null): string {
  return JSON.stringify([sessionId, messageId]);
}
