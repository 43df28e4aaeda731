/**
 * Entries that are not in the document, in blocks: one empty element of their height each, so the list
 * holds a few hundred children whatever the length of the chat. Two kinds:
 * - older entries of a long chat not shown yet (`prepend`): a snapshot of 100,000 entries puts ~1,600
 *   blocks of BLOCK entries in the document, not 100,000 wrappers. Those that near the viewport come out
 *   as their wrappers (cheap placeholders, built later);
 * - built entries far from the viewport (`park`, see farEntries.ts): their elements leave the document as
 *   they are and come back, the same elements, when the viewport nears them. Style, layout and paint
 *   walk every child of the list in every frame, so a list that kept every entry ever built made each
 *   scrolled frame slower than the last.
 * A block keeps each entry's height and opens only where the viewport needs it: what comes out in a
 * frame is a few entries, not a block's 64 (their style alone took 7 ms in one frame of the trace).
 *
 * "Near the viewport" is found from the scroll position, not with an IntersectionObserver: observing the
 * ~150 blocks of a 10,000-entry chat made every scrolled frame recompute all their intersections (about
 * 1 ms a frame in a Chromium trace). The blocks are in document order, so a binary search over their
 * offsets finds the few near the viewport with a handful of reads of an already clean layout.
 */
import { firstEndingBelow, h } from './dom';
import { estimateHeight } from './entryModel';
import type { EntryView } from './entries/entryView';

/** Older entries wait in blocks of this many (one element each) until the block nears the viewport. */
export const BLOCK = 64;
/** Built entries parked together at most: a bound on the arrays walked per opening; fewer blocks keep the list short. */
const PARKED_BLOCK = BLOCK;
/** Gap between entries (their bottom margin in chat.css), counted into a block's height. */
const ENTRY_GAP = 10;
/** How far outside the viewport a block is already opened, so scrolling does not show blanks. */
const MARGIN_PX = 1200;

interface Block {
  views: EntryView[];
  /** Each entry's height: measured when it was parked, estimated for one never built. */
  heights: number[];
  readonly el: HTMLElement;
  /** Built entries taken out of the document, not older ones never shown (only parked ones are merged). */
  readonly parked: boolean;
}

export class EntryBlocks {
  /** Blocks in document order. */
  private blocks: Block[] = [];
  private readonly blockOf = new Map<EntryView, Block>();
  private readonly byEl = new WeakMap<Element, Block>();
  private checkScheduled = false;

  /** `onPlaced` gets entries once their wrappers are in the document again (or for the first time). */
  constructor(
    private readonly scroller: HTMLElement,
    private readonly onPlaced: (views: readonly EntryView[]) => void,
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
      const part = views.slice(i, i + BLOCK);
      const block = this.makeBlock(
        part,
        part.map((v) => estimateHeight(v.entry)),
        false,
      );
      made.push(block);
      frag.append(block.el);
    }
    this.blocks = made.concat(this.blocks);
    this.checkSoon();
    return frag;
  }

  /**
   * Takes built entries out of the document: `views` are consecutive siblings in the list, in order,
   * with their measured heights. They join the parked blocks right after and before them while those
   * have room, else make new ones of PARKED_BLOCK at most; nothing on screen moves, since a block is
   * exactly as tall as the entries it stands for.
   */
  park(views: readonly EntryView[], heights: readonly number[]): void {
    if (views.length !== heights.length) return;
    // Their last ones join a parked block right after them while it has room (scrolling up parks the
    // entries just above such a block, a few per frame: without this, a block each).
    let end = views.length;
    const nextEl = views[end - 1]?.el.nextElementSibling;
    const next = nextEl ? this.byEl.get(nextEl) : undefined;
    if (next?.parked && next.views.length < PARKED_BLOCK) {
      const n = Math.min(PARKED_BLOCK - next.views.length, end);
      const moved = views.slice(end - n, end);
      for (const v of moved) {
        this.blockOf.set(v, next);
        v.el.remove();
      }
      next.views.unshift(...moved);
      next.heights.unshift(...heights.slice(end - n, end));
      next.el.style.height = `${blockHeight(next.heights)}px`;
      end -= n;
    }
    for (let i = 0; i < end;) {
      const first = views[i]!;
      const prevEl = first.el.previousElementSibling;
      const prev = prevEl ? this.byEl.get(prevEl) : undefined;
      if (prev?.parked && prev.views.length < PARKED_BLOCK) {
        const n = Math.min(PARKED_BLOCK - prev.views.length, end - i);
        for (const v of views.slice(i, i + n)) {
          this.blockOf.set(v, prev);
          v.el.remove();
        }
        prev.views.push(...views.slice(i, i + n));
        prev.heights.push(...heights.slice(i, i + n));
        prev.el.style.height = `${blockHeight(prev.heights)}px`;
        i += n;
        continue;
      }
      const n = Math.min(PARKED_BLOCK, end - i);
      const block = this.makeBlock(views.slice(i, i + n), heights.slice(i, i + n), true);
      first.el.before(block.el);
      for (const v of block.views) v.el.remove();
      // Its place among the blocks: after the nearest block before it in the list.
      let at = 0;
      for (let el = block.el.previousElementSibling; el; el = el.previousElementSibling) {
        const b = this.byEl.get(el);
        if (b) {
          at = this.blocks.indexOf(b) + 1;
          break;
        }
      }
      this.blocks.splice(at, 0, block);
      i += n;
    }
  }

  /** The element standing for an entry: its block while it waits, else its own wrapper. */
  elementOf(v: EntryView): HTMLElement {
    return this.blockOf.get(v)?.el ?? v.el;
  }

  /** Makes sure an entry's wrapper is in the document. */
  place(v: EntryView): void {
    const block = this.blockOf.get(v);
    if (!block) return;
    const i = block.views.indexOf(v);
    this.open(block, i, i + 1);
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

  /** Takes out of their blocks the entries within MARGIN_PX of the viewport. */
  check(): void {
    const blocks = this.blocks;
    // A hidden panel has no layout: every offset reads 0, which would open everything.
    if (blocks.length === 0 || this.scroller.clientHeight === 0) return;
    const top = this.scroller.scrollTop - MARGIN_PX;
    const bottom = this.scroller.scrollTop + this.scroller.clientHeight + MARGIN_PX;
    // offsetTop is relative to the scroller's content (`.transcript` is positioned), as scrollTop is.
    const lo = firstEndingBelow(blocks.length, (i) => bottomOf(blocks[i]!.el), top);
    // All reads first, then the writes: opening changes the layout the reads need.
    const near: { block: Block; from: number; to: number }[] = [];
    for (let i = lo; i < blocks.length; i++) {
      const block = blocks[i]!;
      const y = block.el.offsetTop;
      if (y >= bottom) break;
      // Which of its entries overlap [top, bottom), from the heights it keeps.
      let from = -1;
      let to = -1;
      let at = y;
      block.heights.forEach((hgt, j) => {
        if (at + hgt > top && at < bottom) {
          if (from < 0) from = j;
          to = j + 1;
        }
        at += hgt + ENTRY_GAP;
      });
      if (from >= 0) near.push({ block, from, to });
    }
    for (const { block, from, to } of near) this.open(block, from, to);
  }

  /** A block of entries outside the document: one element of their height. */
  private makeBlock(views: EntryView[], heights: number[], parked: boolean): Block {
    const el = h('div', { class: 'entry-block' });
    el.style.height = `${blockHeight(heights)}px`;
    const block: Block = { views, heights, el, parked };
    for (const v of views) this.blockOf.set(v, block);
    this.byEl.set(el, block);
    return block;
  }

  /** Puts entries [from, to) of a block back in the document; what is before and after them stays in blocks. */
  private open(block: Block, from: number, to: number): void {
    const i = this.blocks.indexOf(block);
    if (i < 0 || from >= to) return;
    const placed = block.views.slice(from, to);
    const parts: Node[] = [];
    const rest: Block[] = [];
    if (from > 0) {
      const before = this.makeBlock(block.views.slice(0, from), block.heights.slice(0, from), block.parked);
      rest.push(before);
      parts.push(before.el);
    }
    for (const v of placed) {
      this.blockOf.delete(v);
      parts.push(v.el);
    }
    if (to < block.views.length) {
      const after = this.makeBlock(block.views.slice(to), block.heights.slice(to), block.parked);
      rest.push(after);
      parts.push(after.el);
    }
    this.blocks.splice(i, 1, ...rest);
    block.el.replaceWith(...parts);
    this.onPlaced(placed);
  }
}

/** An element's bottom edge in the scroller's content. */
export function bottomOf(el: HTMLElement): number {
  return el.offsetTop + el.offsetHeight;
}

function blockHeight(heights: readonly number[]): number {
  let sum = ENTRY_GAP * Math.max(0, heights.length - 1);
  for (const x of heights) sum += x;
  return sum;
}
