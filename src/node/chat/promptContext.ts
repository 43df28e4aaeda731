/**
 * Editor context waiting for a chat's next prompt (the chips in the prompt box): added by "Add
 * Selection / File / Problems to Chat", removed from the chip, taken by the next prompt. The same file
 * and range added twice is kept once. While an earlier message is being edited the chips are that
 * message's; the user's own chips are set aside and come back when the edit ends (sent or cancelled).
 * What crosses the wire is decided in src/common/context.ts.
 */
import { contextChip, contextUri, type ContextItem } from '../../common/context';
import type { PanelState } from '../../common/webview/contract';

export class PromptContext {
  private pending: readonly ContextItem[] = [];
  private seq = 0;
  /** The user's chips from before an edit began; null when no edit is open. */
  private setAside: readonly ContextItem[] | null = null;

  /** An edit begins: the chips become `items`; the user's are kept for `endEdit` (a second edit keeps the first's). */
  beginEdit(items: readonly Omit<ContextItem, 'id'>[]): void {
    this.setAside ??= this.pending;
    this.pending = [];
    for (const item of items) this.add(item);
  }

  /** The edit ended: the user's own chips are back (what the edit left is dropped). False when no edit was open. */
  endEdit(): boolean {
    if (this.setAside === null) return false;
    this.pending = this.setAside;
    this.setAside = null;
    return true;
  }

  /** False when the same item is already attached. */
  add(item: Omit<ContextItem, 'id'>): boolean {
    const uri = contextUri(item);
    if (this.pending.some((c) => c.kind === item.kind && contextUri(c) === uri)) return false;
    this.seq++;
    this.pending = [...this.pending, { ...item, id: `ctx-${this.seq}` }];
    return true;
  }

  remove(id: string): boolean {
    const next = this.pending.filter((c) => c.id !== id);
    if (next.length === this.pending.length) return false;
    this.pending = next;
    return true;
  }

  /** The items for the prompt being sent; the prompt box starts empty again. */
  take(): readonly ContextItem[] {
    const items = this.pending;
    this.pending = [];
    return items;
  }

  items(): readonly ContextItem[] {
    return this.pending;
  }

  chips(): PanelState['context'] {
    return this.pending.map(contextChip);
  }
}
