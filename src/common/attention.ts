/**
 * When a chat needs the user: its turn ended, or the agent asks a permission or a question. Derived from
 * the panel state the chat already publishes (its turn and its pending requests), so this keeps no fact of
 * its own beyond what it saw last. Whether to call the user (the chat is not in view, or the window is not
 * focused) is the caller's to judge.
 */
import type { PanelState, TurnState } from './webview/contract';

export type AttentionEvent =
  | { readonly kind: 'turnEnded'; readonly how: 'done' | 'stopped' }
  | { readonly kind: 'permission'; readonly title: string }
  | { readonly kind: 'question'; readonly title: string };

const RUNNING: ReadonlySet<TurnState> = new Set(['busy', 'cancelling']);

export class AttentionWatch {
  private turn: TurnState | null = null;
  private asked = new Set<string>();

  /** A panel change of the chat: what in it calls for the user. */
  observe(fields: Partial<Pick<PanelState, 'turn' | 'permissions' | 'elicitations'>>): AttentionEvent[] {
    const out: AttentionEvent[] = [];
    if (fields.turn !== undefined) {
      const was = this.turn;
      this.turn = fields.turn;
      if (was !== null && RUNNING.has(was) && !RUNNING.has(fields.turn)) {
        if (fields.turn === 'idle') out.push({ kind: 'turnEnded', how: 'done' });
        else if (fields.turn === 'exited' || fields.turn === 'error') out.push({ kind: 'turnEnded', how: 'stopped' });
      }
    }
    const fresh = (id: string) => !this.asked.has(id);
    for (const p of fields.permissions ?? []) if (fresh(`p:${p.requestId}`)) out.push({ kind: 'permission', title: p.title });
    for (const q of fields.elicitations ?? []) if (fresh(`q:${q.requestId}`)) out.push({ kind: 'question', title: q.message });
    // Only the open requests are remembered: the set stays as small as what is pending.
    if (fields.permissions || fields.elicitations) {
      const keep = new Set([...this.asked].filter((k) => (k.startsWith('p:') ? !fields.permissions : !fields.elicitations)));
      for (const p of fields.permissions ?? []) keep.add(`p:${p.requestId}`);
      for (const q of fields.elicitations ?? []) keep.add(`q:${q.requestId}`);
      this.asked = keep;
    }
    return out;
  }
}

/** The notification's text (agent text is the caller's to make inert). */
export function attentionText(chatTitle: string, e: AttentionEvent): string {
  switch (e.kind) {
    case 'turnEnded':
      return e.how === 'done' ? `${chatTitle}: the agent finished.` : `${chatTitle}: the agent stopped.`;
    case 'permission':
      return `${chatTitle}: the agent asks for permission: ${e.title}`;
    case 'question':
      return `${chatTitle}: the agent asks: ${e.title}`;
  }
}
