/**
 * Which links from agent text may be opened, and how: the one link policy, used by the webview (which
 * never navigates, it only reports clicks) and again by the host (which decides).
 */
export type LinkTarget =
  | { readonly kind: 'external'; readonly uri: string }
  /** `path` is absolute, or relative to the workspace (agents link files like `src/a.ts#L3`). */
  | { readonly kind: 'file'; readonly path: string; readonly line: number | null }
  | { readonly kind: 'refused'; readonly reason: string };

const EXTERNAL = new Set(['http:', 'https:', 'mailto:']);
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * A path that names another machine: UNC (`\\host\share`, `//host/share`, or mixed slashes) and Windows
 * device paths (`\\?\`, `\\.\`). Opening one makes the OS connect to that host and offer the user's
 * credentials, so such paths are refused like remote links.
 */
export function isRemotePath(path: string): boolean {
  return /^[\\/]{2}/.test(path.trimStart());
}

const remote = (href: string): LinkTarget => ({ kind: 'refused', reason: `a path on another machine: ${href}` });

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a bad escape is the agent's typo, not a reason to drop the link
  }
}

/** Classifies an href. Anything but web, mail and file links (by URI or by path) is refused. */
export function classifyLink(raw: string): LinkTarget {
  const href = raw.trim();
  if (href === '' || href.startsWith('#')) return { kind: 'refused', reason: 'an in-page anchor' };
  if (href.startsWith('//')) return { kind: 'refused', reason: `a scheme-relative URL: ${href}` };
  const scheme = SCHEME.exec(href)?.[1];
  // Windows drive letters ("C:\a" or "C:/a") look like a one-letter scheme.
  if (scheme === undefined || /^[a-zA-Z]:[\\/]/.test(href)) {
    // A path: "/ws/a.ts", "src/a.ts#L3", "src/a.ts:12".
    const m = /^(.*?)(?:#L?(\d+)(?:-L?\d+)?|:(\d+)(?::\d+)?)?$/.exec(href);
    const path = decode(m?.[1] ?? href);
    const line = m?.[2] ?? m?.[3];
    if (isRemotePath(path)) return remote(href);
    return path ? { kind: 'file', path, line: line ? Number(line) : null } : { kind: 'refused', reason: `not a link: ${href}` };
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { kind: 'refused', reason: `not a valid URL: ${href}` };
  }
  if (url.protocol === 'file:') {
    if ((url.hostname !== '' && url.hostname !== 'localhost') || isRemotePath(decode(url.pathname))) return remote(href);
    const line = /^L?(\d+)/.exec(url.hash.slice(1));
    return { kind: 'file', path: decode(url.pathname), line: line?.[1] ? Number(line[1]) : null };
  }
  if (EXTERNAL.has(url.protocol)) return { kind: 'external', uri: url.toString() };
  return { kind: 'refused', reason: `links with the scheme ${url.protocol} are not opened` };
}
