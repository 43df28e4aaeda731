/**
 * Which link targets the webview hands to the host. The webview never navigates itself: every click is
 * posted as `openLink` and VS Code opens it, so only schemes VS Code opens safely pass.
 */
const ALLOWED = new Set(['http:', 'https:', 'mailto:', 'file:', 'vscode:', 'vscode-insiders:']);

export function isOpenableLink(href: string): boolean {
  const trimmed = href.trim();
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(trimmed);
  // Relative links and fragments have no meaning inside a webview.
  if (!m) return false;
  return ALLOWED.has(m[1]!.toLowerCase() + ':');
}

/**
 * `file:///a/b.ts#L12`, or a scheme-less path such as `src/b.ts#L12` (agents link workspace files that
 * way), -> {path, line} for `openLocation`; null for anything else.
 */
export function fileLocation(uri: string): { path: string; line: number | null } | null {
  const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri) && !uri.startsWith('#') && !uri.startsWith('//') && uri.trim() !== '';
  if (!uri.startsWith('file:') && !relative) return null;
  const hash = /#L?(\d+)/.exec(uri);
  const withoutHash = uri.replace(/#.*$/, '');
  let path = withoutHash.replace(/^file:\/\//, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // Keep the raw path: a bad escape is the agent's typo, not a reason to drop the link.
  }
  return { path, line: hash ? Number(hash[1]) : null };
}
