/**
 * Whether one absolute path is another or inside it, the way the platform's file system would judge it.
 * Pure string work (no Node APIs): the caller passes the platform's path style, so Windows and macOS rules
 * are tested here on Linux. Callers compare real paths (symlinks already resolved); this module only fixes
 * spelling: separators, case, drive letters, UNC and `\\?\` prefixes, `file:` URIs, `.` and `..`.
 */

/** How a platform spells and compares paths. */
export interface PathStyle {
  /** Drive letters, UNC shares, `\` and `/` both separators (win32). */
  readonly windows: boolean;
  /** One folder whatever the case (Windows, and macOS's default file system). */
  readonly caseInsensitive: boolean;
}

export function pathStyle(platform: string): PathStyle {
  return { windows: platform === 'win32', caseInsensitive: platform === 'win32' || platform === 'darwin' };
}

/** A path as a root (`/`, `c:`, `//server/share`) and its segments, spelled for comparison. */
interface PathKey {
  readonly root: string;
  readonly segments: readonly string[];
}

/** `file:///C:/x`, `file://server/share/x`, `file:///home/x` as a platform path; undefined when malformed. */
function fromFileUri(uri: string, style: PathStyle): string | undefined {
  const m = /^file:\/\/([^/]*)(\/.*)?$/i.exec(uri);
  if (!m) return undefined;
  let rest: string;
  try {
    rest = decodeURIComponent(m[2] ?? '/');
  } catch {
    return undefined;
  }
  const host = decodeURIComponent(m[1] ?? '');
  if (host !== '' && host.toLowerCase() !== 'localhost') return style.windows ? `//${host}${rest}` : undefined;
  return style.windows && /^\/[A-Za-z]:/.test(rest) ? rest.slice(1) : rest;
}

/** The comparable form of an absolute path, or undefined when it is not absolute for this platform. */
function keyOf(input: string, style: PathStyle): PathKey | undefined {
  let p = input;
  if (/^file:/i.test(p)) {
    const fromUri = fromFileUri(p, style);
    if (fromUri === undefined) return undefined;
    p = fromUri;
  }
  if (p.includes('\0')) return undefined;
  let root: string;
  if (style.windows) {
    p = p.replace(/\//g, '\\');
    // Win32 namespaces: `\\?\C:\x`, `\\?\UNC\server\share\x` and `\\.\C:\x` name the same files as `C:\x`.
    if (/^\\\\[?.]\\UNC\\/i.test(p)) p = `\\\\${p.slice(8)}`;
    else if (/^\\\\[?.]\\[A-Za-z]:(\\|$)/.test(p)) p = p.slice(4);
    const drive = /^([A-Za-z]):(\\|$)/.exec(p);
    const unc = /^\\\\([^\\]+)\\([^\\]+)(\\|$)/.exec(p);
    if (drive) {
      root = `${drive[1]!.toLowerCase()}:`;
      p = p.slice(2);
    } else if (unc && unc[1] !== '?' && unc[1] !== '.') {
      root = `//${unc[1]!.toLowerCase()}/${unc[2]!}`;
      p = p.slice(unc[0].length);
    } else {
      // `\x` (current drive), `C:x` (drive-relative) and relative paths depend on process state: not absolute.
      return undefined;
    }
  } else {
    if (!p.startsWith('/')) return undefined;
    root = '/';
  }
  const segments: string[] = [];
  for (const raw of p.split(style.windows ? '\\' : '/')) {
    // Windows drops trailing dots and spaces from a name: `secret.` and `secret ` open `secret`.
    const s = style.windows && raw !== '.' && raw !== '..' ? raw.replace(/[. ]+$/, '') : raw;
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(style.caseInsensitive ? s.toLowerCase() : s);
  }
  return { root: style.caseInsensitive ? root.toLowerCase() : root, segments };
}

/** True when `child` is `parent` or inside it; false when either is not an absolute path for `style`. */
export function isInside(parent: string, child: string, style: PathStyle): boolean {
  const a = keyOf(parent, style);
  const b = keyOf(child, style);
  if (!a || !b || a.root !== b.root || b.segments.length < a.segments.length) return false;
  return a.segments.every((s, i) => b.segments[i] === s);
}

/** True when both name the same path for `style`. */
export function samePath(a: string, b: string, style: PathStyle): boolean {
  return isInside(a, b, style) && isInside(b, a, style);
}

/** True when `real` is one of `roots` or inside one. */
export function insideAny(roots: readonly string[], real: string, style: PathStyle): boolean {
  return roots.some((r) => isInside(r, real, style));
}

/**
 * Names whose files configure the editor, this extension, git or a dev container, so that writing them
 * can run code or widen what an agent may do: `.vscode/settings.json`, `.git/hooks/*`, `*.code-workspace`.
 */
const CONFIG_DIRS = ['.vscode', '.git', '.devcontainer'];

/** True when `real` (inside `root`) is, or is under, a folder or file that configures VS Code or git. */
export function isConfigPath(root: string, real: string, style: PathStyle): boolean {
  const a = keyOf(root, style);
  const b = keyOf(real, style);
  if (!a || !b || !isInside(root, real, style)) return false;
  const rel = b.segments.slice(a.segments.length);
  const last = rel[rel.length - 1] ?? '';
  // Case-folded for the check alone: a `.VSCODE` folder on a case-sensitive disk is not VS Code's, but
  // refusing it costs nothing and keeps one rule.
  return rel.some((s) => CONFIG_DIRS.includes(s.toLowerCase())) || /\.code-workspace$/i.test(last) || last.toLowerCase() === '.gitmodules';
}
