/**
 * A chat's git worktree as the chat record keeps it (one owner: `ChatRecord.worktree` in the chat index).
 * The schema is the type; read tolerantly, like every field of a saved record.
 */
import * as z from 'zod';

export const zWorktreeInfo = z.object({
  /** The user's checkout the worktree was made from (the repository's top folder), where Apply writes. */
  repo: z.string().min(1).max(4000),
  /** The worktree's folder, in the extension's storage: the chat's cwd and whole file boundary. */
  path: z.string().min(1).max(4000),
  /** The branch made for the chat (`acp/…`). */
  branch: z.string().min(1).max(300),
  /** The commit the chat's changes are measured against (HEAD when made, or the commit of carried changes). */
  base: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** The user's uncommitted changes were carried over (as the base commit's own change). */
  carried: z.boolean().catch(false),
});
export type WorktreeInfo = Readonly<z.infer<typeof zWorktreeInfo>>;

/** What the user sees of the repository before a worktree chat starts, and why one cannot. */
export type RepoProbe =
  | { readonly kind: 'no-git' | 'not-repo' | 'bare' | 'no-commit'; readonly message: string }
  | {
      readonly kind: 'repo';
      readonly top: string;
      readonly head: string;
      /** The branch checked out, null on a detached HEAD (the worktree then starts from that commit). */
      readonly branch: string | null;
      /** Staged changes (carried over as plain changes, not staged). */
      readonly dirtyIndex: boolean;
      /** Any change, untracked files included (offered to carry over). */
      readonly dirty: boolean;
      /** Submodule paths (a new worktree gets them uninitialised, and their changes are not diffed). */
      readonly submodules: readonly string[];
    };

/** One line for a repository a worktree can be made from: what happens to its special cases. */
export function probeNotes(p: Extract<RepoProbe, { kind: 'repo' }>): string[] {
  const notes: string[] = [];
  if (p.branch === null) notes.push(`HEAD is detached: the worktree starts from commit ${p.head.slice(0, 12)}.`);
  if (p.dirtyIndex) notes.push('Staged changes are carried over (if you choose to) as unstaged changes.');
  if (p.submodules.length) notes.push(`Submodules (${p.submodules.join(', ')}) are not checked out in the worktree, and their changes are not part of its diff.`);
  return notes;
}
