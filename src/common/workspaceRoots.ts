/**
 * The folders of a multi-root workspace as an ACP session sees them: one is the session's `cwd`, the others
 * go in `additionalDirectories` (stable v1, sent only to agents that advertise
 * `sessionCapabilities.additionalDirectories`). Every folder is in the chat's file boundary either way
 * (`fsHandlers.ts` reads the workspace's folders); this module only chooses and spells, with no VS Code or
 * Node APIs, so it is tested on its own.
 */
import { isInside, samePath, type PathStyle } from './pathBoundary';

/** A workspace folder on disk (`file:` folders only: the protocol wants absolute paths). */
export interface RootFolder {
  readonly name: string;
  readonly path: string;
}

/** True when `p` is an absolute path for `style` (the protocol's rule for `cwd` and `additionalDirectories`). */
export function isAbsolutePath(p: string, style: PathStyle): boolean {
  return !/^file:/i.test(p) && isInside(p, p, style);
}

/**
 * The folder a new chat works in: the one `acpChat.workingFolder` names (by folder name or path), else the
 * first. Undefined when the workspace has no folder on disk.
 */
export function pickCwd(folders: readonly RootFolder[], preferred: string, style: PathStyle): string | undefined {
  const usable = folders.filter((f) => isAbsolutePath(f.path, style));
  const want = preferred.trim();
  const named = want === '' ? undefined : usable.find((f) => f.name === want || samePath(f.path, want, style));
  return (named ?? usable[0])?.path;
}

/** The folders beside `cwd`, in the workspace's order: absolute, each once, `cwd` itself left out. */
export function additionalRoots(folders: readonly RootFolder[], cwd: string, style: PathStyle): string[] {
  const out: string[] = [];
  for (const f of folders) {
    if (!isAbsolutePath(f.path, style) || samePath(f.path, cwd, style)) continue;
    if (!out.some((o) => samePath(o, f.path, style))) out.push(f.path);
  }
  return out;
}

/** What a change of the workspace's folders means for a chat's agent, or null when no folder came or went. */
export function foldersChangedText(added: readonly string[], removed: readonly string[], supported: boolean | undefined): { title: string; description: string } | null {
  if (added.length === 0 && removed.length === 0) return null;
  const parts = [...(added.length ? [`added ${added.join(', ')}`] : []), ...(removed.length ? [`removed ${removed.join(', ')}`] : [])];
  const description =
    supported === false
      ? 'This agent does not take additional directories: it works in its first folder only; the other folders stay inside the chat’s file boundary.'
      : 'The agent is told on its next session (New Session, Restart, or when the chat reopens); file access follows the workspace at once.';
  return { title: `Workspace folders changed: ${parts.join('; ')}.`, description };
}
