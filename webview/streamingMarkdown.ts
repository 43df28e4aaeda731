/**
 * A markdown block that grows while the agent streams. Finished blocks (everything before the last safe
 * cut, see BlockSplitter) are rendered once and kept as DOM; only the trailing open block is re-rendered,
 * and the caller does that at most once per animation frame. Cost per frame is the size of the tail,
 * not of the message.
 */
import { BlockSplitter } from './blockSplitter';
import { h } from './dom';
import { renderMarkdown } from './markdown';

export class StreamingMarkdown {
  readonly el: HTMLElement = h('div', { class: 'markdown' });
  private readonly tail: HTMLElement = h('div', { class: 'md-tail' });
  private readonly splitter = new BlockSplitter();
  private text = '';
  private frozenEnd = 0;
  /** How many times the tail was rendered (tests and the bench read it to prove incrementality). */
  renders = 0;

  constructor(text: string) {
    this.el.append(this.tail);
    this.setText(text);
  }

  setText(text: string): void {
    if (text === this.text && this.renders > 0) return;
    // Not `startsWith`: on the long string that appends build, it walks the characters one by one (a
    // fifth of a streaming frame); slice + === compares flat memory, or the same string at once.
    if (text.length < this.text.length || text.slice(0, this.text.length) !== this.text) {
      // Not a continuation (the agent replaced the message): start over.
      this.splitter.reset();
      this.frozenEnd = 0;
      this.el.replaceChildren(this.tail);
    }
    this.text = text;
    const cut = this.splitter.update(text);
    if (cut > this.frozenEnd) {
      const seg = h('div', { class: 'md-seg' });
      seg.append(renderMarkdown(text.slice(this.frozenEnd, cut)));
      this.el.insertBefore(seg, this.tail);
      this.frozenEnd = cut;
    }
    this.tail.replaceChildren(renderMarkdown(text.slice(this.frozenEnd)));
    this.renders++;
  }
}
