/**
 * The prompts a chat holds while a turn runs (one turn per session in flight), and who waits for the chat
 * to settle. Pure: the chat's thread decides when a turn may start; this only keeps the order, the
 * panel's view of it and the waiters. Each queued prompt has an id of its own, so an edit, a move or a
 * removal from the panel never lands on another prompt when the one at the front was sent meanwhile.
 */
import type { ContextItem } from './context';
import type { ContentBlock } from './protocol/content';
import type { QueuedPromptView } from './webview/contract';

export interface QueuedPrompt {
  readonly text: string;
  readonly images: readonly { readonly mimeType: string; readonly data: string }[];
  /** Editor context attached when the prompt was sent (chips in the prompt box). */
  readonly context?: readonly ContextItem[];
  /** Blocks sent after the prompt's own (a branch's carried transcript, see `carriedPrompt`). */
  readonly carried?: readonly ContentBlock[];
}

export class PromptQueue {
  private readonly items: { readonly id: string; prompt: QueuedPrompt }[] = [];
  private nextId = 1;
  private waiters: (() => void)[] = [];

  get length(): number {
    return this.items.length;
  }

  /** Queues a prompt at the back; returns its id. */
  push(prompt: QueuedPrompt): string {
    const id = `q${this.nextId++}`;
    this.items.push({ id, prompt });
    return id;
  }

  /** The next prompt to send, in the order they were queued. */
  shift(): QueuedPrompt | undefined {
    return this.items.shift()?.prompt;
  }

  /** Removes a queued prompt; false when there is none with this id (it was sent meanwhile). */
  remove(id: string): boolean {
    const i = this.indexOf(id);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  /**
   * Replaces a queued prompt's text (its images and context stay); false when it is gone, or when the
   * edit would leave a prompt with nothing to send.
   */
  edit(id: string, text: string): boolean {
    const item = this.items[this.indexOf(id)];
    const trimmed = text.trim();
    if (!item || (!trimmed && item.prompt.images.length === 0 && !item.prompt.context?.length)) return false;
    item.prompt = { ...item.prompt, text: trimmed };
    return true;
  }

  /** Moves a queued prompt `offset` places towards the front (negative) or the back; false when it cannot move. */
  move(id: string, offset: number): boolean {
    const from = this.indexOf(id);
    const to = from + offset;
    if (from < 0 || !Number.isInteger(offset) || offset === 0 || to < 0 || to >= this.items.length) return false;
    const [item] = this.items.splice(from, 1);
    if (item) this.items.splice(to, 0, item);
    return true;
  }

  /** The queued prompts as the panel lists them: the text, and what else goes with it. */
  forPanel(): QueuedPromptView[] {
    return this.items.map(({ id, prompt: q }) => {
      const extras = [
        q.images.length ? `${q.images.length} image${q.images.length > 1 ? 's' : ''}` : '',
        q.context?.length ? `${q.context.length} context item${q.context.length > 1 ? 's' : ''}` : '',
      ].filter((x) => x);
      return { id, text: q.text, note: extras.join(', ') };
    });
  }

  /** Resolves at the next `settle()`, or at once when `settled` is already true. */
  whenSettled(settled: boolean): Promise<void> {
    if (settled) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Wakes everyone waiting in `whenSettled`. */
  settle(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private indexOf(id: string): number {
    return this.items.findIndex((i) => i.id === id);
  }
}
