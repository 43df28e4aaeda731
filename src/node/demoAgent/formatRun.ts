/**
 * The demo's formatter run ("format" in the prompt, with a command to run): the command squeezes runs of
 * blanks inside the lines of demo-format.txt in the workspace and strips them at the ends, and its tool call
 * reports what it changed as a v2 diff (changes + unified patch), as an agent whose shell tool knows the
 * change does. The client reviews such a change like an edit (hunk by hunk, Undo, Undo All); a command that
 * reports nothing is not seen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';

const FORMAT_FILE = 'demo-format.txt';

/** Formats the file (when it exists and needs it) and returns the v2 diff to report; null: nothing changed. */
export function runFormatter(cwd: string): Record<string, unknown> | null {
  const file = path.join(cwd, FORMAT_FILE);
  let before: string;
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const after = before.replace(/[ \t]+$/gm, '').replace(/(\S)[ \t]{2,}/g, '$1 ');
  if (after === before) return null;
  writeFileSync(file, after);
  // Without jsdiff's "=====" separator line: a patch as `git diff` writes it.
  const patch = createTwoFilesPatch(`a/${FORMAT_FILE}`, `b/${FORMAT_FILE}`, before, after, '', '', { context: 1 })
    .split('\n')
    .filter((l) => !/^=+$/.test(l))
    .join('\n');
  return { type: 'diff', changes: [{ operation: 'modify', path: file, fileType: 'text' }], patch: { format: 'unified', text: patch } };
}
