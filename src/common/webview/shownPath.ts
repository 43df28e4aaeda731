/**
 * Paths as a tool card shows them (issue 38 item 10): relative to the folder the session works in (its
 * cwd, else one of its additional directories, named by its last segment), as the user thinks of their
 * files; a path outside every folder is shortened to its last segments. The whole path stays in the
 * element's title and in what a click opens.
 */

function trimmed(root: string): string {
  return root.length > 1 ? root.replace(/[\\/]+$/, '') : root;
}

function lastSegment(p: string): string {
  return (
    p
      .split(/[\\/]/)
      .filter((s) => s !== '')
      .at(-1) ?? p
  );
}

/** `p` relative to the first root it is under (prefixed with that root's name when it is not the first); null when under none. */
export function relativePath(p: string, roots: readonly string[]): string | null {
  for (const [i, raw] of roots.entries()) {
    const root = trimmed(raw);
    if (root === '' || !p.startsWith(root)) continue;
    const sep = p.charAt(root.length);
    if (sep !== '/' && sep !== '\\') continue;
    const rel = p.slice(root.length + 1);
    if (rel === '') continue;
    return i === 0 ? rel : `${lastSegment(root)}/${rel}`;
  }
  return null;
}

export function shownPath(p: string, roots: readonly string[]): string {
  const rel = relativePath(p, roots);
  if (rel !== null) return rel;
  const parts = p.split(/[\\/]/);
  return parts.length > 3 ? `…/${parts.slice(-3).join('/')}` : p;
}

/** A tool title with the session's folders taken off the paths in it ("Edit `/ws/a/b.ts`" reads "Edit `a/b.ts`"). */
export function titleWithRelativePaths(title: string, roots: readonly string[]): string {
  let out = title;
  for (const raw of roots) {
    const root = trimmed(raw);
    if (root.length < 2) continue;
    out = out.split(`${root}/`).join('').split(`${root}\\`).join('');
  }
  return out;
}
