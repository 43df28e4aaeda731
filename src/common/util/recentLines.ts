/** The newest lines of a log, at most `limit` of them: what a debug bundle shows of a log that cannot be read back. */
export class RecentLines {
  private readonly lines: string[] = [];

  constructor(private readonly limit: number) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.splice(0, this.lines.length - this.limit);
  }

  /** Oldest first; the live list (it changes as lines come). */
  all(): readonly string[] {
    return this.lines;
  }
}
