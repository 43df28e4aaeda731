/** Line paging for `fs/read_text_file`, shared by the extension and the CLI. */

/**
 * `fs/read_text_file`'s `line` (1-based first line) and `limit` (max lines), applied to text fed in pieces
 * so a large file is never held whole: `push` each decoded piece; `done` turns true once the window is
 * full. Line endings are kept as they are (a CRLF file gives CRLF lines, each page keeps its last newline).
 */
export class LineWindow {
  private readonly start: number;
  private readonly end: number;
  private line = 0;
  private readonly parts: string[] = [];
  private size = 0;

  constructor(line?: number | null, limit?: number | null) {
    this.start = Math.max(1, line ?? 1) - 1;
    this.end = limit === undefined || limit === null ? Infinity : this.start + Math.max(0, limit);
  }

  get done(): boolean {
    return this.line >= this.end;
  }

  /** Characters kept so far (the caller caps what one read may return). */
  get length(): number {
    return this.size;
  }

  push(piece: string): void {
    let from = 0;
    while (from < piece.length && !this.done) {
      const nl = piece.indexOf('\n', from);
      const to = nl === -1 ? piece.length : nl + 1;
      if (this.line >= this.start) {
        this.parts.push(piece.slice(from, to));
        this.size += to - from;
      }
      if (nl === -1) break;
      this.line++;
      from = to;
    }
  }

  text(): string {
    return this.parts.join('');
  }
}

/** `LineWindow` over a whole text. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const w = new LineWindow(line, limit);
  w.push(text);
  return w.text();
}
