/** Which links from agent text may be opened, and how. The webview never navigates; the host decides. */
export type LinkTarget =
  | { readonly kind: 'external'; readonly uri: string }
  | { readonly kind: 'file'; readonly path: string; readonly line: number | null }
  | { readonly kind: 'refused'; readonly reason: string };

const EXTERNAL = new Set(['http:', 'https:', 'mailto:']);

/** Classifies an href from agent-rendered Markdown. Anything but web, mail and file links is refused. */
export function classifyLink(href: string): LinkTarget {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    // A bare absolute path ("/ws/a.ts" or "/ws/a.ts:12"), as agents often write.
    const m = /^(\/[^\s:#?]+)(?::(\d+))?$/.exec(href);
    if (m?.[1]) return { kind: 'file', path: m[1], line: m[2] ? Number(m[2]) : null };
    return { kind: 'refused', reason: `not an absolute URL: ${href}` };
  }
  if (url.protocol === 'file:') {
    const line = /^L?(\d+)$/.exec(url.hash.slice(1));
    return { kind: 'file', path: decodeURIComponent(url.pathname), line: line?.[1] ? Number(line[1]) : null };
  }
  if (EXTERNAL.has(url.protocol)) return { kind: 'external', uri: url.toString() };
  return { kind: 'refused', reason: `links with the scheme ${url.protocol} are not opened` };
}
