/**
 * Editor context waiting for a chat's next prompt (the chips in the prompt box): added by "Add
 * Selection / File / Problems to Chat", removed from the chip, taken by the next prompt. The same file
 * and range added twice is kept once. What crosses the wire is decided in src/common/context.ts.
 */
import { contextChip, contextUri, type ContextItem } from '../common/context';
import type { PanelState } from '../common/webview/contract';

export class PromptContext {
  private pending: readonly ContextItem[] = [];
  private seq = 0;

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
