/**
 * Which workspace a window shows, as one string that every window of that workspace computes alike,
 * whatever storage folder VS Code handed it (`workspaceStorage/<hash>` or `<hash>-1` when the usual one
 * was locked, or a crash left its lock) and whichever spelling of the path opened it. The chats of a
 * workspace are kept under a key derived from this (src/node/persistence/chatHome.ts), so every window
 * of the workspace finds them.
 *
 * Pure: the caller resolves links (realpath) first and says how the platform compares paths.
 */

/** A saved `.code-workspace` file names the workspace; else its folders do (in any order). */
export interface WorkspaceLocation {
  /** The workspace file's path or URI, when a saved one is open (not an untitled workspace). */
  readonly workspaceFile?: string;
  /** Each folder's path (file system folders) or URI string (remote and virtual folders). */
  readonly folders: readonly string[];
}

/** Windows and macOS compare paths without case by default; Linux with case. */
export function pathsIgnoreCase(platform: string): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/**
 * One spelling of a path or URI: forward slashes, no trailing slash, a lower-case drive letter (and the
 * whole path in lower case where the platform ignores case); a URI's scheme and authority in lower case.
 */
export function normalLocation(location: string, ignoreCase: boolean): string {
  const uri = /^([a-z][a-z0-9+.-]+):\/\/([^/]*)(.*)$/i.exec(location);
  if (uri && uri[1]!.length > 1) {
    const [, scheme, authority, rest] = uri;
    const p = trimSlash(decodeSafe(rest!));
    return `${scheme!.toLowerCase()}://${authority!.toLowerCase()}${ignoreCase ? p.toLowerCase() : p}`;
  }
  let p = trimSlash(location.replace(/\\/g, '/'));
  p = p.replace(/^([A-Za-z]):/, (_, d: string) => `${d.toLowerCase()}:`);
  return ignoreCase ? p.toLowerCase() : p;
}

/** The identity string (undefined for a window with no folder: its chats are the global ones). */
export function workspaceIdentity(w: WorkspaceLocation, ignoreCase: boolean): string | undefined {
  if (w.workspaceFile !== undefined) return `workspace:${normalLocation(w.workspaceFile, ignoreCase)}`;
  if (w.folders.length === 0) return undefined;
  const folders = [...new Set(w.folders.map((f) => normalLocation(f, ignoreCase)))].sort();
  return `folders:${folders.join('\n')}`;
}

/**
 * What a `workspaceStorage/<hash>/workspace.json` (VS Code writes one per storage folder) says the
 * folder was used for: `{ folder: uri }` or `{ workspace: uri }`; undefined when it says neither.
 */
export function workspaceJsonLocation(raw: unknown, uriToPath: (uri: string) => string): WorkspaceLocation | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as { folder?: unknown; workspace?: unknown };
  if (typeof r.workspace === 'string') return { workspaceFile: uriToPath(r.workspace), folders: [] };
  if (typeof r.folder === 'string') return { folders: [uriToPath(r.folder)] };
  return undefined;
}

function trimSlash(p: string): string {
  const t = p.replace(/\/+$/, '');
  // The root stays a root ("/" or "c:/").
  return t === '' ? '/' : /^[A-Za-z]:$/.test(t) ? `${t}/` : t;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
