/**
 * The prompts a chat holds while a turn runs (one turn per session in flight), and who waits for the chat
 * to settle. Pure: the session controller decides when a turn may start; this only keeps the order, the
 * panel's view of it and the waiters.
 */
import type { ContextItem } from './context';

export interface QueuedPrompt {
  readonly text: string;
  readonly images: readonly { readonly mimeType: string; readonly data: string }[];
  /** Editor context attached when the prompt was sent (chips in the prompt box). */
  readonly context?: readonly ContextItem[];
}

export class PromptQueue {
  private readonly items: QueuedPrompt[] = [];
  private waiters: (() => void)[] = [];

  get length(): number {
    return this.items.length;
  }

  push(prompt: QueuedPrompt): void {
    this.items.push(prompt);
  }

  /** The next prompt to send, in the order they were queued. */
  shift(): QueuedPrompt | undefined {
    return this.items.shift();
  }

  /** Removes the queued prompt at `index`; false when there is none (it was sent meanwhile). */
  remove(index: number): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= this.items.length) return false;
    this.items.splice(index, 1);
    return true;
  }

  /** One line per queued prompt, as the panel lists them. */
  forPanel(): string[] {
    return this.items.map((q) => {
      const extras = [q.images.length ? `${q.images.length} image${q.images.length > 1 ? 's' : ''}` : '', q.context?.length ? `${q.context.length} context item${q.context.length > 1 ? 's' : ''}` : ''].filter((x) => x);
      return extras.length ? `${q.text} [${extras.join(', ')}]`.trim() : q.text;
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
}
