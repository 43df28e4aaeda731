/**
 * The last lines of an agent's stderr, for error messages, in bounded memory and linear time whatever
 * the agent writes: a progress bar that redraws with `\r` and never writes `\n` costs one scan of each
 * chunk, and only the newest `MAX_LINE_CHARS` of an unfinished line are kept.
 */
export const MAX_LINE_CHARS = 2000;
/** The most of the tail an error message quotes. */
export const MAX_QUOTE_CHARS = 2000;

export class StderrTail {
  private readonly kept: string[] = [];
  private partial = '';
  private partialCut = false;

  constructor(
    private readonly maxLines: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: string): void {
    let from = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', from)) >= 0) {
      this.add(this.partial + chunk.slice(from, nl), this.partialCut);
      this.partial = '';
      this.partialCut = false;
      from = nl + 1;
    }
    if (from >= chunk.length) return;
    // No newline yet: keep only the newest part; the join is bounded by the cap plus this chunk.
    const rest = this.partial + chunk.slice(Math.max(from, chunk.length - MAX_LINE_CHARS));
    this.partialCut ||= chunk.length - from > MAX_LINE_CHARS || rest.length > MAX_LINE_CHARS;
    this.partial = rest.length > MAX_LINE_CHARS ? rest.slice(rest.length - MAX_LINE_CHARS) : rest;
  }

  /** The stream ended: an unfinished last line still counts. */
  end(): void {
    if (this.partial) this.add(this.partial, this.partialCut);
    this.partial = '';
    this.partialCut = false;
  }

  get lines(): readonly string[] {
    return this.kept;
  }

  /** The last `n` lines for an error message, at most MAX_QUOTE_CHARS (the newest kept). */
  quote(n: number): string {
    const text = this.kept.slice(-n).join(' | ');
    return text.length > MAX_QUOTE_CHARS ? `…${text.slice(text.length - MAX_QUOTE_CHARS)}` : text;
  }

  private add(raw: string, cut: boolean): void {
    // A line redrawn with `\r` shows its last state; a CRLF line ending is not part of the line.
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const redraw = body.lastIndexOf('\r');
    const shown = body.slice(redraw + 1);
    const line = (cut && redraw < 0) || shown.length > MAX_LINE_CHARS ? `…${shown.slice(-MAX_LINE_CHARS)}` : shown;
    this.onLine(line);
    this.kept.push(line);
    if (this.kept.length > this.maxLines) this.kept.shift();
  }
}
