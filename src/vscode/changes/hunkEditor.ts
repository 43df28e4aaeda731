/**
 * Review in the editor: a file an agent changed shows its open change hunk by hunk (the change sets of
 * the chats' reviews, found through editorReviews): the agent's added lines highlighted, what it removed
 * as a short note on the line and in full in the hover, a Keep / Undo lens on each hunk and Keep All /
 * Undo All (file and turn) on the first line. A hunk on lines the user edited since is marked and its
 * Undo refused (hunks.ts). Redrawn when a review changes, an editor shows, or the text changes.
 */
import * as vscode from 'vscode';
import { placeHunks, splitLines, type PlacedHunk } from '../../common/changes/hunks';
import { hunkMarks, type HunkMark } from '../../common/changes/hunkMarks';
import { labelText, markdownCode, markdownText } from '../../common/untrusted';
import { Disposable } from '../../common/util/lifecycle';
import { editorReviews, type FileUnderReview } from './editorReviews';
import type { Hunk } from '../../common/changes/hunks';

export const HunkCommandIds = {
  keep: 'acpChat.keepChange',
  undo: 'acpChat.undoChange',
  next: 'acpChat.nextChange',
  previous: 'acpChat.previousChange',
  keepFile: 'acpChat.keepFileChanges',
  undoFile: 'acpChat.undoFileChanges',
  keepTurn: 'acpChat.keepTurnChanges',
  undoTurn: 'acpChat.undoTurnChanges',
} as const;

/** A lens's hunk: which review (editorReviews' number), set and hunk. */
export interface HunkArg {
  readonly uri: string;
  readonly reviewId: number;
  readonly setId: string;
  readonly hunk: Hunk;
}

export interface ShownChanges {
  readonly under: FileUnderReview;
  readonly placed: readonly PlacedHunk[];
  readonly marks: readonly HunkMark[];
}

/** A document's text changes are redrawn after this pause (typing in a large file is not re-diffed per key). */
const TYPING_PAUSE_MS = 80;
const HAS_CHANGES_KEY = 'acpChat.editorHasAgentChanges';

export class HunkEditor extends Disposable {
  private readonly cache = new Map<string, { version: number; shown: ShownChanges | undefined }>();
  private readonly added = this.register(
    deco({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );
  private readonly edited = this.register(
    deco({
      isWholeLine: true,
      borderColor: new vscode.ThemeColor('editorWarning.foreground'),
      borderStyle: 'dashed',
      borderWidth: '0 0 0 2px',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );
  private readonly removed = this.register(
    deco({
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
    }),
  );
  private readonly lensChanged = this.register(new vscode.EventEmitter<void>());
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.register(editorReviews.onDidChange(() => this.refresh(true)));
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.refresh(false)));
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.setContext()));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === 'file' && e.contentChanges.length > 0 && this.typed()));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.cache.delete(d.uri.toString())));
    this.register(vscode.languages.registerCodeLensProvider({ scheme: 'file' }, { onDidChangeCodeLenses: this.lensChanged.event, provideCodeLenses: (doc) => this.lenses(doc) }));
    this.register({ dispose: () => clearTimeout(this.timer) });
    this.refresh(true);
  }

  /** The open change of `doc` placed on its text now (cached per document version and review state). */
  shown(doc: vscode.TextDocument): ShownChanges | undefined {
    if (doc.uri.scheme !== 'file') return undefined;
    const key = doc.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === doc.version) return hit.shown;
    const under = editorReviews.fileAt(doc.uri.fsPath);
    let shown: ShownChanges | undefined;
    if (under) {
      const text = doc.getText();
      const placed = placeHunks(under.file.oldText ?? '', under.file.agentText, text);
      shown = placed.length ? { under, placed, marks: hunkMarks(placed, splitLines(text).length) } : undefined;
    }
    this.cache.set(key, { version: doc.version, shown });
    return shown;
  }

  private typed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(false), TYPING_PAUSE_MS);
  }

  /** Redraws every visible editor; `reviewsChanged`: the cache is stale whatever the document versions. */
  refresh(reviewsChanged: boolean): void {
    if (reviewsChanged) this.cache.clear();
    for (const editor of vscode.window.visibleTextEditors) this.draw(editor);
    this.lensChanged.fire();
    this.setContext();
  }

  private draw(editor: vscode.TextEditor): void {
    const shown = this.shown(editor.document);
    const marks = shown?.marks ?? [];
    const lines = (m: HunkMark) => new vscode.Range(m.first, 0, Math.max(m.end - 1, m.first), 0);
    editor.setDecorations(this.added, marks.filter((m) => !m.conflict && m.end > m.first).map(lines));
    editor.setDecorations(
      this.edited,
      marks
        .filter((m) => m.conflict)
        .map((m) => ({ range: lines(m), hoverMessage: `You edited these lines after ${labelText(shown?.under.agentName ?? 'the agent')}'s change: Undo leaves them alone.` })),
    );
    editor.setDecorations(
      this.removed,
      marks
        .filter((m) => m.removed.length > 0)
        .map((m) => {
          const end = editor.document.lineAt(Math.min(m.at, editor.document.lineCount - 1)).range.end;
          // A plain-string hover is untrusted Markdown: the name escaped, the removed lines in a fence they cannot close.
          const hover = `${markdownText(`${shown?.under.agentName ?? 'The agent'} removed:`)}\n\n${markdownCode(m.removed.join('\n'), editor.document.languageId)}`;
          return { range: new vscode.Range(end, end), hoverMessage: hover, renderOptions: { after: { contentText: m.note } } };
        }),
    );
  }

  private setContext(): void {
    const doc = vscode.window.activeTextEditor?.document;
    void vscode.commands.executeCommand('setContext', HAS_CHANGES_KEY, doc ? this.shown(doc) !== undefined : false);
  }

  private lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const shown = this.shown(doc);
    if (!shown) return [];
    const { under, marks } = shown;
    const top = new vscode.Range(0, 0, 0, 0);
    const n = marks.length;
    const file = { uri: doc.uri.toString() };
    const out = [
      new vscode.CodeLens(top, { title: `${labelText(under.agentName, 60)}: ${n} change${n === 1 ? '' : 's'} to review`, command: HunkCommandIds.next, arguments: [file] }),
      new vscode.CodeLens(top, { title: 'Keep All', command: HunkCommandIds.keepFile, arguments: [file] }),
      new vscode.CodeLens(top, { title: 'Undo All', command: HunkCommandIds.undoFile, arguments: [file] }),
      new vscode.CodeLens(top, { title: 'Keep Turn', tooltip: 'Keep every file this turn changed', command: HunkCommandIds.keepTurn, arguments: [file] }),
      new vscode.CodeLens(top, { title: 'Undo Turn', tooltip: 'Undo every file this turn changed', command: HunkCommandIds.undoTurn, arguments: [file] }),
    ];
    for (const m of marks) {
      const at = new vscode.Range(m.at, 0, m.at, 0);
      const arg: HunkArg = { uri: doc.uri.toString(), reviewId: under.reviewId, setId: under.setId, hunk: shown.placed[m.index]!.hunk };
      out.push(new vscode.CodeLens(at, { title: 'Keep', command: HunkCommandIds.keep, arguments: [arg] }));
      out.push(new vscode.CodeLens(at, { title: m.conflict ? 'Undo (edited since)' : 'Undo', command: HunkCommandIds.undo, arguments: [arg] }));
    }
    return out;
  }
}

function deco(o: vscode.DecorationRenderOptions): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType(o);
}
