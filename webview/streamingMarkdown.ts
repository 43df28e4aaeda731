/**
 * A markdown block that grows while the agent streams. Finished blocks (everything before the last safe
 * cut, see BlockSplitter) are rendered once and kept as DOM; only the trailing open block is re-rendered,
 * and the caller does that at most once per animation frame. Cost per frame is the size of the open
 * block, not of the message:
 * - streamed text comes as the part added (`extend`): only the open block's text is parsed, split and
 *   rendered; the whole message's string is never read (slicing or searching it would copy it whole);
 * - finished blocks go into groups of GROUP_SIZE, each full one its own paint layer (chat.css): the
 *   message's element has a few groups as children, not one per block, and the browser's per-frame
 *   layout, pre-paint and compositing passes walk the children of what changed (a Chromium trace of a
 *   240 KB answer showed those walks growing with it). A message of fewer blocks adds no layer.
 * Groups and segments are plain blocks for layout, so margins collapse through them as if they were not there.
 */
import { BlockSplitter } from './blockSplitter';
import { h } from './dom';
import { renderMarkdown } from './markdown';

/** Finished segments per group. */
export const GROUP_SIZE = 32;

export class StreamingMarkdown {
  readonly el: HTMLElement = h('div', { class: 'markdown' });
  private readonly tail: HTMLElement = h('div', { class: 'md-tail' });
  private readonly splitter = new BlockSplitter();
  /** The whole text shown, as the caller gave it (compared only when a change is not known to be an append). */
  private text = '';
  /** The text after the last finished segment: what is split and rendered at each drawing. */
  private open = '';
  /** The group finished segments go into, and how many it holds. */
  private group: HTMLElement | null = null;
  private grouped = 0;
  /** How many times the tail was rendered (tests and the bench read it to prove incrementality). */
  renders = 0;

  constructor(text: string) {
    this.el.append(this.tail);
    this.setText(text);
  }

  /** Shows `text`: a continuation of what is shown is rendered as such, anything else from scratch. */
  setText(text: string): void {
    if (text === this.text && this.renders > 0) return;
    // Not `startsWith`: on the long string that appends build, it walks the characters one by one; slice
    // + === compares flat memory. Either reads the whole text: streamed text comes through `extend`.
    if (text.length >= this.text.length && text.slice(0, this.text.length) === this.text) {
      this.extend(text, text.slice(this.text.length));
      return;
    }
    // Not a continuation (the agent replaced the message): start over.
    this.splitter.reset();
    this.text = '';
    this.open = '';
    this.group = null;
    this.grouped = 0;
    this.el.replaceChildren(this.tail);
    this.extend(text, text);
  }

  /**
   * Shows `text`, which the caller knows is the text shown so far followed by `added` (streamed text).
   * Only `added` and the open block are read; a length that does not add up falls back to `setText`.
   */
  extend(text: string, added: string): void {
    if (text.length !== this.text.length + added.length) return this.setText(text);
    this.text = text;
    if (added === '' && this.renders > 0) return;
    this.open += added;
    const cut = this.splitter.update(this.open);
    if (cut > 0) {
      this.freeze(this.open.slice(0, cut));
      this.open = this.open.slice(cut);
      this.splitter.drop(cut);
    }
    this.tail.replaceChildren(renderMarkdown(this.open));
    this.renders++;
  }

  /** Renders finished blocks once, into the current group (a new one when it is full). */
  private freeze(source: string): void {
    const seg = h('div', { class: 'md-seg' });
    seg.append(renderMarkdown(source));
    if (!this.group || this.grouped >= GROUP_SIZE) {
      this.group?.classList.add('full');
      this.group = h('div', { class: 'md-group' });
      this.el.insertBefore(this.group, this.tail);
      this.grouped = 0;
    }
    this.group.append(seg);
    this.grouped++;
  }
}
