/** Words for worktree chats' dialogs and rows (the names in them are the user's and git's). */
import type { FileStat } from './gitText';
import type { WorktreeInfo } from './worktreeInfo';

/** `+3 −1` (or `binary`) per file, its path as the label. */
export function fileLines(files: readonly FileStat[]): { label: string; counts: string; path: string }[] {
  return files.map((f) => ({ label: f.from ? `${f.from} → ${f.path}` : f.path, counts: f.added === null ? 'binary' : `+${f.added} −${f.removed ?? 0}`, path: f.path }));
}

/** What Discard loses, named: the changed files (up to 15) and the commits past the base. */
export function lossText(info: WorktreeInfo, loss: { files: readonly FileStat[]; commits: number }): string {
  const lines = [`The folder ${info.path} and the branch ${info.branch} are deleted.`];
  if (loss.commits) lines.push(`${loss.commits} commit${loss.commits === 1 ? '' : 's'} on the branch ${loss.commits === 1 ? 'is' : 'are'} lost.`);
  if (loss.files.length) {
    lines.push(`Changes to ${loss.files.length} file${loss.files.length === 1 ? '' : 's'} are lost:`);
    lines.push(...fileLines(loss.files.slice(0, 15)).map((f) => `  ${f.label} (${f.counts})`));
    if (loss.files.length > 15) lines.push(`  and ${loss.files.length - 15} more`);
  } else if (!loss.commits) lines.push('It holds no changes.');
  lines.push('The chat stays in history.');
  return lines.join('\n');
}
