/**
 * `@`-mentions in a prompt: `@src/app.ts`, `@"docs/My File.md"`. The host resolves each mention to a
 * file and attaches it as a `resource` (when the agent accepts embedded context) or a `resource_link`.
 */
export interface Mention {
  /** The path as typed (relative to the workspace, or absolute). */
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

const MENTION = /(^|[\s(])@(?:"([^"\n]+)"|([^\s"'`()<>]+))/g;

export function parseMentions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const raw = m[2] ?? m[3];
    if (!raw) continue;
    // Trailing sentence punctuation is not part of a path.
    const p = m[2] ? raw : raw.replace(/[.,;:!?]+$/, '');
    if (!p || p.includes('@')) continue; // an e-mail-like token, not a mention
    const start = (m.index ?? 0) + (m[1]?.length ?? 0);
    out.push({ path: p, start, end: start + 1 + (m[2] ? raw.length + 2 : p.length) });
  }
  return out;
}

export function fileUri(absPath: string): string {
  const encoded = absPath.replace(/\\/g, '/').split('/').map(encodeURIComponent).join('/');
  return `file://${encoded.startsWith('/') ? '' : '/'}${encoded}`;
}

/** The `@` token being typed at the caret (`see @src/ap|` -> {query: 'src/ap', start}), or null. */
export function mentionQuery(value: string, caret: number): { query: string; start: number } | null {
  const before = value.slice(0, caret);
  const m = /(^|[\s(])@([^\s"'`()<>@]*)$/.exec(before);
  if (!m) return null;
  return { query: m[2] ?? '', start: before.length - (m[2]?.length ?? 0) - 1 };
}

/** The text of a completed mention: quoted when the path has spaces, followed by a space. */
export function mentionText(path: string): string {
  return /\s/.test(path) ? `@"${path}" ` : `@${path} `;
}

/** Orders candidate paths for a query: file-name prefix matches first, then shorter paths. */
export function rankPaths(paths: readonly string[], query: string, limit = 20): string[] {
  const q = query.toLowerCase();
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
  const score = (p: string) => (base(p).startsWith(q) ? 0 : base(p).includes(q) ? 1 : p.toLowerCase().includes(q) ? 2 : 3);
  return paths
    .filter((p) => score(p) < 3)
    .sort((a, b) => score(a) - score(b) || a.length - b.length || (a < b ? -1 : 1))
    .slice(0, limit);
}
