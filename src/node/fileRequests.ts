/**
 * `fs/read_text_file` and `fs/write_text_file` behind the workspace boundary, one implementation for the
 * CLI and the extension. A file counts as outside the workspace when its real path is, when it has
 * another name (a hard link, whose other name may be anywhere), and, for writes, when it configures
 * VS Code, git or this extension (`.vscode/`, `.git/`, `*.code-workspace`): writing those can run code or
 * widen what the agent may do. The caller's `judge` decides what happens outside (refuse, or ask); what
 * allows going outside (a setting, a flag) does not by itself allow writing those (`CONFIG_FILE`).
 */
import type { Access } from '../common/boundary';
import { insideAny, isConfigPath, type PathStyle } from '../common/pathBoundary';
import type { ReadTextFileParams } from '../common/protocol/requests';
import { keepLineEndings } from './acp/lineEndings';
import { inspectTarget, readChecked, writeChecked, type FileTarget } from './safeFs';

/** Says why an access counts as outside the workspace; resolves to let it through, throws to refuse. */
type Judge = (access: Access, t: FileTarget, why: string) => Promise<void>;

export interface FileBoundary {
  /** Real paths of the workspace roots. */
  roots(): Promise<readonly string[]>;
  readonly style: PathStyle;
  readonly judge: Judge;
}

export const OUTSIDE = 'outside the workspace';
/** Why a write inside the workspace still counts: a permission to go outside is not a permission for this. */
export const CONFIG_FILE = 'a file that configures VS Code, git or this extension';
export const HARD_LINK = 'a hard link (the file has another name, which may be outside the workspace)';

/** Why a judged file counts as outside the workspace, or undefined when it is inside. */
function whyOutside(access: 'read' | 'write', t: FileTarget, roots: readonly string[], style: PathStyle): string | undefined {
  if (!insideAny(roots, t.real, style)) return OUTSIDE;
  // Before the hard link: allowing outside access (which covers hard links) must not let a linked config file through.
  if (access === 'write' && roots.some((r) => isConfigPath(r, t.real, style))) return CONFIG_FILE;
  if (t.linked) return HARD_LINK;
  return undefined;
}

/** Resolves and judges a file for `access`; the target returned is what must be opened. */
export async function admitFile(access: 'read' | 'write', requested: string, b: FileBoundary): Promise<FileTarget> {
  const t = await inspectTarget(requested);
  const why = whyOutside(access, t, await b.roots(), b.style);
  if (why !== undefined) await b.judge(access, t, why);
  return t;
}

export async function boundedRead(p: ReadTextFileParams, b: FileBoundary): Promise<string> {
  return readChecked(await admitFile('read', p.path, b), p.line, p.limit);
}

export async function boundedWrite(p: { path: string; content: string }, b: FileBoundary): Promise<void> {
  const t = await admitFile('write', p.path, b);
  // An agent writes LF; a CRLF file keeps CRLF (sampled from the very file the write replaces).
  await writeChecked(t, (existing) => keepLineEndings(existing, p.content));
}
