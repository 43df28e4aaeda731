/**
 * Older entries of a long chat that are not in the document yet: they wait in blocks of BLOCK entries,
 * one empty element of about their height each, so a snapshot of 100,000 entries puts ~1,600 elements in
 * the document, not 100,000. A block near the viewport becomes its entries' wrappers.
 *
 * "Near the viewport" is found from the scroll position, not with an IntersectionObserver: observing the
 * ~150 blocks of a 10,000-entry chat made every scrolled frame recompute all their intersections (about
 * 1 ms a frame in a Chromium trace, with blocks that are almost never near). The blocks are in document
 * order, so a binary search over their offsets finds the few near the viewport with a handful of reads of
 * an already clean layout.
 */
import { h } from './dom';
import { estimateHeight } from './entryModel';
import type { EntryView } from './entries/entryView';

/** Older entries wait in blocks of this many (one element each) until the block nears the viewport. */
export const BLOCK = 64;
/** Gap between entries (`.entry + .entry` in chat.css), counted into a block's height. */
const ENTRY_GAP = 10;
/** How far outside the viewport a block is already expanded, so scrolling does not show blanks. */
const MARGIN_PX = 1200;

interface Block {
  readonly views: readonly EntryView[];
  readonly el: HTMLElement;
}

export class OlderEntries {
  /** Waiting blocks in document order. */
  private blocks: Block[] = [];
  private readonly blockOf = new Map<EntryView, Block>();
  private checkScheduled = false;

  /** `onExpand` gets a block's views once their wrappers are in the document. */
  constructor(
    private readonly scroller: HTMLElement,
    private readonly onExpand: (views: readonly EntryView[]) => void,
  ) {
    // A scroll event comes once per frame at most, before the frame's animation callbacks, when the
    // layout is normally still clean from the last frame: the reads below cost no extra layout.
    scroller.addEventListener('scroll', () => this.check(), { passive: true });
    // A taller or narrower panel shows more of what is above without a scroll. Both listeners live as
    // long as the scroller (the page's one transcript).
    new ResizeObserver(() => this.checkSoon()).observe(scroller);
  }

  get size(): number {
    return this.blocks.length;
  }

  /** Forgets every block (their elements go with the list the caller replaces). */
  clear(): void {
    this.blocks = [];
    this.blockOf.clear();
  }

  /** Blocks for `views` (in order), to put in the document before everything already there. */
  prepend(views: readonly EntryView[]): DocumentFragment {
    const frag = document.createDocumentFragment();
    const made: Block[] = [];
    for (let i = 0; i < views.length; i += BLOCK) {
      const block = this.makeBlock(views.slice(i, i + BLOCK));
      made.push(block);
      frag.append(block.el);
    }
    this.blocks = made.concat(this.blocks);
    this.checkSoon();
    return frag;
  }

  /** The element standing for an entry: its block while it waits, else its own wrapper. */
  elementOf(v: EntryView): HTMLElement {
    return this.blockOf.get(v)?.el ?? v.el;
  }

  /** Makes sure an entry's wrapper is in the document (its block's entries with it). */
  place(v: EntryView): void {
    const block = this.blockOf.get(v);
    if (block) this.expand(block);
  }

  /**
   * Looks for blocks near the viewport after the next paint (a snapshot's first frame is not delayed by
   * it, and the layout is clean by then).
   */
  checkSoon(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        this.checkScheduled = false;
        this.check();
      };
      ch.port2.postMessage(null);
    });
  }

  /** Expands the blocks within MARGIN_PX of the viewport. */
  check(): void {
    const blocks = this.blocks;
    // A hidden panel has no layout: every offset reads 0, which would expand everything.
    if (blocks.length === 0 || this.scroller.clientHeight === 0) return;
    const top = this.scroller.scrollTop - MARGIN_PX;
    const bottom = this.scroller.scrollTop + this.scroller.clientHeight + MARGIN_PX;
    // offsetTop is relative to the scroller's content (`.transcript` is positioned), as scrollTop is.
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const el = blocks[mid]!.el;
      if (el.offsetTop + el.offsetHeight > top) hi = mid;
      else lo = mid + 1;
    }
    const near: Block[] = [];
    for (let i = lo; i < blocks.length && blocks[i]!.el.offsetTop < bottom; i++) near.push(blocks[i]!);
    // All reads first, then the writes: expanding changes the layout the reads need.
    for (const b of near) this.expand(b);
  }

  /** A block of entries waiting outside the document: one element of about their height. */
  private makeBlock(views: EntryView[]): Block {
    let height = ENTRY_GAP * (views.length - 1);
    for (const v of views) height += estimateHeight(v.entry);
    const el = h('div', { class: 'entry-block' });
    el.style.height = `${height}px`;
    const block = { views, el };
    for (const v of views) this.blockOf.set(v, block);
    return block;
  }

  /** Replaces a block with its entries' wrappers (their contents are built when they come near). */
  private expand(block: Block): void {
    const i = this.blocks.indexOf(block);
    if (i < 0) return;
    this.blocks.splice(i, 1);
    const frag = document.createDocumentFragment();
    for (const v of block.views) {
      this.blockOf.delete(v);
      frag.append(v.el);
    }
    block.el.replaceWith(frag);
    this.onExpand(block.views);
  }
}
