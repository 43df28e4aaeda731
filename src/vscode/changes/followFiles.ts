/**
 * The review follows its files (follow.ts): an editor's text changes (an editor undo of its Undo, a
 * redo, the user's typing), and, through one file system watcher per review on its turns' files only,
 * changes no editor shows (a created file deleted by Undo and brought back by Ctrl+Z, a file not open
 * in any editor changed by another tool). Both are read after the same pause, so a burst is read once.
 * The watcher follows the files as the change sets change, and goes with the review.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import type { ChangeReview } from '../../common/changes/review';
import { watchPatterns } from '../../common/changes/watchPattern';

/** A file's changes are followed after this pause (a burst of typing is read once). */
const FOLLOW_PAUSE_MS = 100;

/** The files a review follows: those of its ended turns whose change is still the user's to review or was undone. */
function followedPaths(review: ChangeReview): string[] {
  const out = new Set<string>();
  for (const set of review.state.sets)
    if (set.ended) for (const f of set.files) if (f.state !== 'kept' && f.blocked === null && f.agentText !== null) out.add(nodePath.normalize(f.path));
  return [...out].sort();
}

export function followFiles(review: ChangeReview, windows = process.platform === 'win32'): void {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const later = (path: string) => {
    clearTimeout(timers.get(path));
    timers.set(
      path,
      setTimeout(() => {
        timers.delete(path);
        void review.fileChanged(path);
      }, FOLLOW_PAUSE_MS),
    );
  };
  const edits = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.uri.scheme === 'file' && e.contentChanges.length > 0) later(e.document.uri.fsPath);
  });
  let watched = '';
  let watchers: vscode.Disposable[] = [];
  const watch = () => {
    const paths = followedPaths(review);
    const joined = paths.join('\0');
    if (joined === watched) return;
    watched = joined;
    for (const w of watchers) w.dispose();
    // On Windows a Uri's fsPath spells the drive in lower case, and names are case-insensitive.
    const key = (p: string) => (windows ? p.toLowerCase() : p);
    const followed = new Map(paths.map((p) => [key(p), p]));
    const onFile = (uri: vscode.Uri) => {
      const p = followed.get(key(nodePath.normalize(uri.fsPath)));
      if (p !== undefined) later(p);
    };
    watchers = watchPatterns(paths, windows).flatMap(({ base, pattern }) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), pattern));
      return [w, w.onDidCreate(onFile), w.onDidChange(onFile), w.onDidDelete(onFile)];
    });
  };
  const changes = review.onDidChange(watch);
  watch();
  review.onWillDispose(() => {
    edits.dispose();
    changes.dispose();
    for (const w of watchers) w.dispose();
    for (const t of timers.values()) clearTimeout(t);
  });
}
