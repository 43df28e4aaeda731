/**
 * The commands of review in the editor: Keep / Undo of one hunk (a lens's, else the one at the cursor),
 * next and previous change, Keep All / Undo All of the file and of the turn. They act through the chat's
 * review (the one owner of what was kept or undone), so the Changes summary follows; what is refused is
 * said, never done halfway silently.
 */
import * as vscode from 'vscode';
import type { Hunk } from '../../common/changes/hunks';
import { noticeText } from '../../common/untrusted';
import { Disposable } from '../../common/util/lifecycle';
import { editorReviews } from './editorReviews';
import { HunkCommandIds, type HunkArg, type HunkEditor, type ShownChanges } from './hunkEditor';

const isHunkArg = (a: unknown): a is HunkArg => typeof a === 'object' && a !== null && 'hunk' in a && 'reviewId' in a && 'setId' in a && 'uri' in a;
const uriOf = (a: unknown): string | undefined =>
  a instanceof vscode.Uri ? a.toString() : typeof a === 'object' && a !== null && 'uri' in a && typeof a.uri === 'string' ? a.uri : undefined;

export class HunkCommands extends Disposable {
  constructor(private readonly editor: HunkEditor) {
    super();
    const add = (id: string, fn: (arg?: unknown) => Promise<unknown>) => this.register(vscode.commands.registerCommand(id, fn));
    add(HunkCommandIds.keep, (a) => this.onHunk(a, 'keep'));
    add(HunkCommandIds.undo, (a) => this.onHunk(a, 'undo'));
    add(HunkCommandIds.next, (a) => this.move(a, 1));
    add(HunkCommandIds.previous, (a) => this.move(a, -1));
    add(HunkCommandIds.keepFile, (a) => this.onFile(a, 'keep'));
    add(HunkCommandIds.undoFile, (a) => this.onFile(a, 'undo'));
    add(HunkCommandIds.keepTurn, (a) => this.onTurn(a, 'keep'));
    add(HunkCommandIds.undoTurn, (a) => this.onTurn(a, 'undo'));
  }

  /** The document named by `arg` (a lens's), else the active editor's, with its changes. */
  private async target(arg: unknown): Promise<{ doc: vscode.TextDocument; shown: ShownChanges } | undefined> {
    const uri = uriOf(arg);
    const doc = uri
      ? (vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))))
      : vscode.window.activeTextEditor?.document;
    const shown = doc && this.editor.shown(doc);
    if (!doc || !shown) {
      void vscode.window.showInformationMessage('This file has no agent changes to review.');
      return undefined;
    }
    return { doc, shown };
  }

  private async onHunk(arg: unknown, action: 'keep' | 'undo'): Promise<void> {
    let reviewId: number;
    let setId: string;
    let hunk: Hunk;
    let path: string;
    if (isHunkArg(arg)) {
      ({ reviewId, setId, hunk } = arg);
      path = vscode.Uri.parse(arg.uri).fsPath;
    } else {
      const t = await this.target(arg);
      if (!t) return;
      const line = vscode.window.activeTextEditor?.document === t.doc ? vscode.window.activeTextEditor.selection.active.line : 0;
      const m = t.shown.marks.find((x) => line >= x.at && line < Math.max(x.end, x.at + 1)) ?? t.shown.marks.find((x) => x.at >= line) ?? t.shown.marks.at(-1);
      if (!m) return;
      ({ reviewId, setId } = t.shown.under);
      hunk = t.shown.placed[m.index]!.hunk;
      path = t.doc.uri.fsPath;
    }
    const review = editorReviews.review(reviewId);
    const refused = review ? await review.actOnHunk(setId, path, hunk, action) : 'The chat of this change is closed.';
    if (refused) void vscode.window.showWarningMessage(noticeText(refused));
  }

  private async move(arg: unknown, step: 1 | -1): Promise<void> {
    const t = await this.target(arg);
    if (!t) return;
    const editor = vscode.window.activeTextEditor?.document === t.doc ? vscode.window.activeTextEditor : await vscode.window.showTextDocument(t.doc);
    const line = editor.selection.active.line;
    const lines = t.shown.marks.map((m) => m.at);
    const next = step === 1 ? (lines.find((l) => l > line) ?? lines[0]) : ([...lines].reverse().find((l) => l < line) ?? lines.at(-1));
    if (next === undefined) return;
    const at = new vscode.Position(next, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async onFile(arg: unknown, action: 'keep' | 'undo'): Promise<void> {
    const t = await this.target(arg);
    if (!t) return;
    const { review, setId, file } = t.shown.under;
    const index = review.state.sets.find((s) => s.id === setId)?.files.findIndex((f) => f.path === file.path) ?? -1;
    if (action === 'keep' || index < 0) return void (index >= 0 && (await review.act(setId, index, 'keep')));
    // Hunk by hunk from the bottom, each placed on the text then: the user's edits are kept, their hunks left.
    let left = 0;
    for (const p of [...t.shown.placed].reverse()) if (await review.actOnHunk(setId, file.path, p.hunk, 'undo')) left++;
    if (left)
      void vscode.window.showWarningMessage(
        noticeText(
          `Undid ${t.shown.placed.length - left} of ${t.shown.placed.length} changes. ${left} left alone: you edited those lines after ${t.shown.under.agentName}'s change (Keep accepts them as they are).`,
        ),
      );
  }

  private async onTurn(arg: unknown, action: 'keep' | 'undo'): Promise<void> {
    const t = await this.target(arg);
    if (t) await t.shown.under.review.act(t.shown.under.setId, null, action);
  }
}
