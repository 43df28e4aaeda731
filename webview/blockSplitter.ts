/**
 * Finds where a growing markdown text can be cut so that everything before the cut renders the same on
 * its own and never has to be rendered again while the message streams (the O(n²) complaint).
 *
 * A cut is only placed before the first line after a blank line, outside a code fence, when that line
 * cannot continue the block before it: indented less than 4 columns (4+ may continue an indented code
 * block), and at column 0 when we are inside a list (an indented line there is the list item's next
 * paragraph). A list continued at column 0 after a blank line then renders as two adjacent lists, an
 * acceptable look for a streaming message. We wait for the line's first character because only then
 * do we know its indentation.
 *
 * Pure (no DOM) so it is unit-tested in Node.
 */
export class BlockSplitter {
  /** Offset just past the last complete line scanned. */
  private scanned = 0;
  private fence: { readonly char: string; readonly len: number } | null = null;
  private prevBlank = false;
  /** Inside a list: an indented line after a blank line belongs to the current item. */
  private inList = false;
  private cut = 0;

  /** Latest safe cut offset (0 when none yet). */
  get safeCut(): number {
    return this.cut;
  }

  reset(): void {
    this.scanned = 0;
    this.fence = null;
    this.prevBlank = false;
    this.inList = false;
    this.cut = 0;
  }

  /**
   * The text's first `n` characters (up to the safe cut at most) were taken off: from now on `update` is
   * fed what follows them and offsets count from there. The streaming renderer keeps only its open
   * block, so it never reads the whole message again.
   */
  drop(n: number): void {
    if (n < 0 || n > this.cut) throw new RangeError(`drop(${n}) past the safe cut ${this.cut}`);
    this.scanned -= n;
    this.cut -= n;
  }

  /** Feeds the whole text so far (it must extend the text fed before); returns the latest safe cut. */
  update(text: string): number {
    let pos = this.scanned;
    for (;;) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) break;
      this.scanLine(text.slice(pos, nl), pos);
      pos = nl + 1;
    }
    this.scanned = pos;
    // The unfinished last line already tells us enough once its first non-blank character is there.
    if (!this.fence && this.prevBlank && pos < text.length) {
      const partial = text.slice(pos, pos + 8);
      const indent = /^ */.exec(partial)![0].length;
      if (indent < partial.length && partial.charAt(indent) !== '\t' && this.cutAllowed(indent)) this.cut = pos;
    }
    return this.cut;
  }

  private scanLine(line: string, start: number): void {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (this.fence) {
      const closes = fence !== null && fence[1]!.startsWith(this.fence.char) && fence[1]!.length >= this.fence.len && line.slice(fence[0].length).trim() === '';
      if (closes) this.fence = null;
      this.prevBlank = false;
      return;
    }
    const blank = line.trim() === '';
    if (!blank) {
      const indent = /^ */.exec(line)![0].length;
      const tab = line.charAt(indent) === '\t';
      if (this.prevBlank && !tab && this.cutAllowed(indent)) this.cut = start;
      if (/^ {0,3}([-+*]|\d{1,9}[.)])(\s|$)/.test(line)) this.inList = true;
      else if (indent === 0 && this.prevBlank) this.inList = false;
    }
    if (fence) this.fence = { char: fence[1]!.charAt(0), len: fence[1]!.length };
    this.prevBlank = blank;
  }

  private cutAllowed(indent: number): boolean {
    return this.inList ? indent === 0 : indent < 4;
  }
}
