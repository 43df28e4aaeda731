/**
 * Edits an agent made itself and reported as diffs in tool-call content. Agents report either the whole
 * file (Codex, Gemini CLI) or only the replaced fragment (Claude Code's and OpenCode's Edit: `oldText`
 * "hello", `newText` "hello\nmore"), so the whole previous text is derived: starting from the file as it
 * is when the turn ends (the agent's version), each reported diff is undone, newest first. A step works
 * when the text is the diff's whole `newText`, or holds it exactly once (a fragment); anything else (the
 * file changed after the report, an ambiguous fragment) leaves the previous text unknown, and Undo is
 * then not offered rather than guessed. ACP v2 diffs carry a patch instead of texts: its file's part is
 * applied in reverse (jsdiff, which finds where the hunk fits); one without a patch, or a move, copy or
 * delete, is listed with the previous text unknown.
 */
import { applyPatch, parsePatch, reversePatch, type StructuredPatch } from 'diff';
import type { DiffV2 } from '../protocol/content';
import { isDiffV2 } from '../protocol/contentHelpers';
import type { Entry } from '../store/model';
import { eolOf, withEol } from './eol';

/** A v1 diff's texts, or a v2 diff's operation and its file's part of the patch (null: none sent, or unreadable). */
export type ReportedDiff =
  | { readonly path: string; readonly oldText: string | null; readonly newText: string }
  | { readonly path: string; readonly operation: string; readonly patch: StructuredPatch | null };

const isPatch = (d: ReportedDiff): d is Extract<ReportedDiff, { operation: string }> => 'operation' in d;

/** The reported texts, when the diff has them (v1), for Open diff of a file whose previous text is unknown. */
export function reportedTexts(d: ReportedDiff): { oldText: string | null; newText: string | null } {
  return isPatch(d) ? { oldText: null, newText: null } : { oldText: d.oldText, newText: d.newText };
}

/** Each file of a v2 diff, with its part of the patch. */
function v2Diffs(c: DiffV2): ReportedDiff[] {
  let patches: StructuredPatch[] = [];
  try {
    patches = c.patch && /unified|diff/i.test(c.patch.format) ? parsePatch(c.patch.text) : [];
  } catch {
    patches = []; // an unreadable patch: the previous text stays unknown
  }
  const strip = (name: string | undefined) => (name ?? '').replace(/^[ab]\//, '');
  const forPath = (p: string): StructuredPatch | null => {
    const named = patches.find((x) => [strip(x.newFileName), strip(x.oldFileName)].some((n) => n !== '' && n !== '/dev/null' && (p === n || p.endsWith(`/${n}`))));
    return named ?? (patches.length === 1 && c.changes.length === 1 ? patches[0]! : null);
  };
  return c.changes.map((ch) => ({ path: ch.path, operation: ch.operation, patch: forPath(ch.path) }));
}

/**
 * The diffs of the turn's completed tool calls, in order. Pending, failed or rejected tool calls (a
 * permission request shows the diff it asks about) edited nothing. The same v1 diff repeated for a file
 * in a row counts once.
 */
export function reportedDiffs(entries: readonly Entry[]): ReportedDiff[] {
  const out: ReportedDiff[] = [];
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.status !== 'completed') continue;
    for (const c of e.content) {
      if (c.type !== 'diff') continue;
      if (isDiffV2(c)) {
        out.push(...v2Diffs(c));
        continue;
      }
      const d = { path: c.path, oldText: c.oldText ?? null, newText: c.newText };
      const last = [...out].reverse().find((x) => x.path === d.path);
      if (last && !isPatch(last) && last.oldText === d.oldText && last.newText === d.newText) continue;
      out.push(d);
    }
  }
  return out;
}

/** Groups diffs by path, in the order each path was first reported. */
export function byPath(diffs: readonly ReportedDiff[]): Map<string, ReportedDiff[]> {
  const out = new Map<string, ReportedDiff[]>();
  for (const d of diffs) out.set(d.path, [...(out.get(d.path) ?? []), d]);
  return out;
}

export type Resolved = { readonly resolved: true; readonly oldText: string | null; readonly agentText: string | null } | { readonly resolved: false };

/**
 * The previous and the agent's text of one file, from its text now (`current`, null: it does not exist)
 * and the diffs reported for it, oldest first.
 */
export function resolveDiffs(current: string | null, diffs: readonly ReportedDiff[]): Resolved {
  if (diffs.length === 0) return { resolved: false };
  // The agent's texts are LF; a CRLF file's are matched (and restored) in CRLF.
  const eol = current !== null && eolOf(current) === '\r\n' ? '\r\n' : undefined;
  const inFile = (t: string | null) => (t === null ? null : withEol(t, eol));
  let text: string | null = current;
  for (let i = diffs.length - 1; i >= 0; i--) {
    const d = diffs[i]!;
    if (text === null) return { resolved: false };
    if (isPatch(d)) {
      if (!d.patch || (d.operation !== 'add' && d.operation !== 'modify')) return { resolved: false };
      const back = applyPatch(text, reversePatch(d.patch));
      if (back === false) return { resolved: false };
      text = d.operation === 'add' ? null : back;
      continue;
    }
    const newText = inFile(d.newText)!;
    const oldText = inFile(d.oldText);
    if (text === newText) text = oldText;
    else if (oldText !== null && newText !== '' && occursOnce(text, newText)) {
      const at = text.indexOf(newText);
      text = text.slice(0, at) + oldText + text.slice(at + newText.length);
    } else return { resolved: false };
  }
  // A created file (first oldText null) is only known to be the agent's if it exists now.
  return { resolved: true, oldText: text, agentText: current };
}

function occursOnce(text: string, part: string): boolean {
  const at = text.indexOf(part);
  return at >= 0 && text.indexOf(part, at + 1) < 0;
}
