/**
 * The glob a review's file watcher watches: exactly its turns' files, as one pattern relative to their
 * nearest common folder (a workspace-wide watcher would wake for every file of the workspace). Characters
 * a glob reads as syntax are matched by `?` instead (a path is agent-controlled, and the glob has no
 * escape); the watcher's events are checked against the exact paths anyway. Pure; the platform is passed.
 */

export interface WatchPattern {
  /** The folder the pattern is relative to (in the platform's spelling). */
  readonly base: string;
  /** `{a.ts,src/b.ts}`: forward slashes, as globs are. */
  readonly pattern: string;
}

const GLOB_SYNTAX = /[{}[\]*?,!]/g;

/** One pattern per root (one in all but a review spanning two Windows drives); none for no paths. */
export function watchPatterns(paths: readonly string[], windows: boolean): WatchPattern[] {
  const sep = windows ? '\\' : '/';
  const byRoot = new Map<string, string[][]>();
  for (const p of new Set(paths)) {
    const parts = p.split(windows ? /[\\/]/ : '/');
    const root = windows ? (parts[0] ?? '').toLowerCase() : '';
    byRoot.set(root, [...(byRoot.get(root) ?? []), parts]);
  }
  return [...byRoot.values()].map((files) => {
    // The common folder: the leading segments every file shares, short of each file's own name.
    let n = Math.min(...files.map((f) => f.length - 1));
    for (let i = 0; i < n; i++) if (files.some((f) => f[i] !== files[0]![i])) n = i;
    const base = files[0]!.slice(0, n).join(sep) || sep;
    const rel = files.map((f) => f.slice(n).join('/').replace(GLOB_SYNTAX, '?')).sort();
    return { base: windows && n === 1 ? `${base}${sep}` : base, pattern: rel.length === 1 ? rel[0]! : `{${rel.join(',')}}` };
  });
}
