/**
 * Which file a code block in an answer is for, when the agent names one: in the fence's info string
 * (```` ```ts src/app.ts ````, ```` ```ts:src/app.ts ````, ```` ```ts title="src/app.ts" ````, or a bare
 * ```` ```src/app.ts ````) or on the line just before the block (`path: src/app.ts`, `**File:** \`src/app.ts\``,
 * or the path alone in backticks). The name is agent text: this only says what it looks like; the host
 * resolves it inside the workspace (or refuses) before anything is shown or written.
 */

/** A file path as agents write one: no scheme, no control or shell-ish characters, a slash or an extension. */
export function looksLikePath(s: string): boolean {
  if (s.length === 0 || s.length > 500) return false;
  if (/[\0-\x1f<>|"*?`]/.test(s) || /^[a-z][\w+.-]*:\/\//i.test(s)) return false;
  if (/^\.{1,2}$/.test(s) || s.endsWith('/') || s.endsWith('\\')) return false;
  const name = s.split(/[\\/]/).pop() ?? '';
  return /[\\/]/.test(s) ? name.length > 0 : /^[\w@+~-][\w.@+~-]*\.[A-Za-z0-9]{1,10}$/.test(name);
}

const KEYED = /^(?:title|file|filename|path)=(?:"([^"]*)"|'([^']*)'|(\S+))$/i;
const LINE_BEFORE = /^\s*(?:[*_]{0,2})(?:path|file|filename)(?:[*_]{0,2})\s*:\s*(?:[*_]{0,2})\s*`?([^`\s*]+)`?\s*(?:[*_]{0,2})\s*$/i;
const BACKTICKED = /^\s*(?:[*_]{0,2})`([^`\s]+)`(?:[*_]{0,2})\s*:?\s*$/;

/**
 * The file a fenced block names, or null. `info` is the fence's info string; `lineBefore` the last line
 * of the paragraph just before the block (its Markdown source), if any.
 */
export function codeBlockFile(info: string, lineBefore: string | null): string | null {
  const words = info.trim().split(/\s+/).filter(Boolean);
  for (const w of words) {
    const keyed = KEYED.exec(w);
    const value = keyed ? (keyed[1] ?? keyed[2] ?? keyed[3] ?? '') : null;
    if (value !== null && looksLikePath(value)) return value;
  }
  const [first, second] = words;
  if (first !== undefined) {
    const colon = /^[\w+#-]+:(.+)$/.exec(first);
    if (colon?.[1] && looksLikePath(colon[1])) return colon[1];
    if (second !== undefined && !second.includes('=') && looksLikePath(second)) return second;
    // A bare path as the info string (no language): it must have a slash or an extension, which no language name has.
    if (second === undefined && /[./\\]/.test(first) && looksLikePath(first)) return first;
  }
  if (lineBefore !== null) {
    const m = LINE_BEFORE.exec(lineBefore) ?? BACKTICKED.exec(lineBefore);
    if (m?.[1] && looksLikePath(m[1])) return m[1];
  }
  return null;
}
