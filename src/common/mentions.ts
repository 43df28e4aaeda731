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
