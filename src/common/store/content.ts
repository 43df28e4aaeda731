/** Helpers over message content: text extraction and O(1) text appends. */
import type { ContentBlock } from '../protocol/content';

/** A text block with nothing but `type` and `text` (no annotations or `_meta`). */
export function isPlainText(block: ContentBlock): boolean {
  if (block.type !== 'text') return false;
  const rec: Record<string, unknown> = block;
  for (const k in rec) if (k !== 'type' && k !== 'text' && rec[k] !== undefined) return false;
  return true;
}

/** The message's text: its text blocks concatenated (chunk boundaries carry no meaning). */
export function textOf(content: readonly ContentBlock[]): string {
  let s = '';
  for (const b of content) if (b.type === 'text') s += b.text;
  return s;
}

/** Bytes of text a block carries, for stats. */
export function blockText(block: ContentBlock): string {
  return block.type === 'text' ? block.text : '';
}

/**
 * Joins many small appends to one growing text without keeping a rope node per append. V8 represents
 * `a + b` as a rope; a message built from a million chunks would otherwise retain a million nodes
 * (several times the text's size, all traced by every GC). The text is kept as `head + tail`: the tail
 * collects up to TAIL_PIECES appends and is then flattened (copying only those few bytes) and moved
 * into the head. Each byte is copied once, each append allocates O(1), the retained structure is one
 * flat segment per TAIL_PIECES appends. The accumulator follows one block: when its owner (the block
 * object it last produced) is not the block being appended to, it starts again from that block's text.
 */
const TAIL_PIECES = 64;
export class TextTail {
  private owner: object | null = null;
  private head = '';
  private tail = '';
  private pieces = 0;

  append(block: { readonly text: string }, piece: string): string {
    if (this.owner !== block) {
      this.head = block.text;
      this.tail = '';
      this.pieces = 0;
    }
    this.tail += piece;
    if (++this.pieces < TAIL_PIECES) return this.head + this.tail;
    this.tail.charCodeAt(0); // reading a character flattens a rope in V8
    this.head += this.tail;
    this.tail = '';
    this.pieces = 0;
    return this.head;
  }

  /** Records the block that now holds the text `append` returned. */
  own(block: object): void {
    this.owner = block;
  }
}

/**
 * Appends one block. Plain text joins the last block when that is a plain text block; it becomes a new
 * text block when the content is empty or ends with a non-text block; anything else is added as is.
 * `appendedText` is set exactly when a view can apply the change as "append this text to the last
 * block if it is a text block, else add a text block". Copies the block array, which holds one block
 * for a text-only message.
 */
export function appendBlock(content: readonly ContentBlock[], block: ContentBlock, tail?: TextTail): { content: ContentBlock[]; appendedText?: string } {
  const out = content.slice();
  const n = content.length;
  const last = n > 0 ? content[n - 1] : undefined;
  if (block.type === 'text' && isPlainText(block)) {
    if (last !== undefined && last.type === 'text' && isPlainText(last)) {
      const joined: ContentBlock = { type: 'text', text: tail ? tail.append(last, block.text) : last.text + block.text };
      tail?.own(joined);
      out[n - 1] = joined;
      return { content: out, appendedText: block.text };
    }
    const added: ContentBlock = { type: 'text', text: block.text };
    out.push(added);
    // After an annotated text block a view would join the text into it: no appendedText then.
    return last !== undefined && last.type === 'text' ? { content: out } : { content: out, appendedText: block.text };
  }
  out.push(block);
  return { content: out };
}
