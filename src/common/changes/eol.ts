/**
 * Line endings. Agents write and diff with LF; a file with CRLF endings keeps them: what an agent writes
 * to it is converted, and its reported diffs are read in the file's endings, so a write, the Changes
 * summary, Undo and Open diff never turn every line into a change.
 */
export type Eol = '\n' | '\r\n';

/** The file's line ending: CRLF when most of its line breaks are CRLF; undefined when it has none. */
export function eolOf(text: string): Eol | undefined {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf + lf === 0) return undefined;
  return crlf > lf ? '\r\n' : '\n';
}

/** `text` with every line break made `eol` (unchanged when eol is undefined). */
export function withEol(text: string, eol: Eol | undefined): string {
  if (eol === undefined) return text;
  return eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}

/** What to write over a file holding `existing` (null: none yet): `content` in the file's own line endings. */
export function inFileEol(existing: string | null, content: string): string {
  return existing === null ? content : withEol(content, eolOf(existing) === '\r\n' && eolOf(content) !== '\r\n' ? '\r\n' : undefined);
}

/**
 * The lines of a text for diffs; a final newline ends the last line rather than starting an empty one.
 * A line's ending is not part of it: the same line with CRLF and with LF is no change.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const out = text.split(/\r?\n/);
  if (out.at(-1) === '') out.pop();
  return out;
}
