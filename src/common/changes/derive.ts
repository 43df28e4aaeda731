/**
 * Edits an agent made itself and reported as diffs in tool-call content. Agents report either the whole
 * file (Codex, Gemini CLI) or only the replaced fragment (Claude Code's and OpenCode's Edit: `oldText`
 * "hello", `newText` "hello\nmore"), so the whole previous text is derived: starting from the file as it
 * is when the turn ends (the agent's version), each reported diff is undone, newest first. A step works
 * when the text is the diff's whole `newText`, or holds it exactly once (a fragment); anything else (the
 * file changed after the report, an ambiguous fragment) leaves the previous text unknown, and Undo is
 * then not offered rather than guessed.
 */
import { isDiffV2 } from '../protocol/content';
import type { Entry } from '../store/model';

export interface ReportedDiff {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
}

/**
 * The v1 diffs of the turn's completed tool calls, in order. Pending, failed or rejected tool calls
 * (a permission request shows the diff it asks about) edited nothing. v2 diffs carry no text and are
 * left out. The same diff repeated for a file in a row counts once.
 */
export function reportedDiffs(entries: readonly Entry[]): ReportedDiff[] {
  const out: ReportedDiff[] = [];
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.status !== 'completed') continue;
    for (const c of e.content) {
      if (c.type !== 'diff' || isDiffV2(c)) continue;
      const d = { path: c.path, oldText: c.oldText ?? null, newText: c.newText };
      const last = [...out].reverse().find((x) => x.path === d.path);
      if (last && last.oldText === d.oldText && last.newText === d.newText) continue;
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
  let text: string | null = current;
  for (let i = diffs.length - 1; i >= 0; i--) {
    const d = diffs[i]!;
    if (text === null) return { resolved: false };
    if (text === d.newText) text = d.oldText;
    else if (d.oldText !== null && d.newText !== '' && occursOnce(text, d.newText)) {
      const at = text.indexOf(d.newText);
      text = text.slice(0, at) + d.oldText + text.slice(at + d.newText.length);
    } else return { resolved: false };
  }
  // A created file (first oldText null) is only known to be the agent's if it exists now.
  return { resolved: true, oldText: text, agentText: current };
}

function occursOnce(text: string, part: string): boolean {
  const at = text.indexOf(part);
  return at >= 0 && text.indexOf(part, at + 1) < 0;
}
