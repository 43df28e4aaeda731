/** Small text helpers shared by the fs handlers of the extension and the CLI. */

/**
 * `fs/read_text_file`'s `line` (1-based first line) and `limit` (max lines). Line endings are kept as
 * they are, so slicing a CRLF file returns CRLF lines.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const start = Math.max(1, line ?? 1) - 1;
  const lines = text.split(/(?<=\n)/);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('');
}

/** True when `child` is `parent` or inside it (both absolute, already normalized, '/' or '\\' separated). */
export function isInside(parent: string, child: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const a = norm(parent);
  const b = norm(child);
  return b === a || b.startsWith(a + '/');
}
