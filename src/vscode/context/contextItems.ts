/**
 * The editor context items the commands and Add Context gather: the selection, a file's text, a file's
 * problems. Apart from the commands (contextCommands.ts) so the chat's UI can use them without the chat
 * service. What crosses the wire is decided in src/common/context.ts.
 */
import * as vscode from 'vscode';
import { formatProblems, MAX_CONTEXT_TEXT, type ContextItem, type Problem } from '../../common/context';

export type NewItem = Omit<ContextItem, 'id'>;

const SEVERITY: Record<vscode.DiagnosticSeverity, Problem['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** The selection of the active editor (the current line when nothing is selected). */
export function selectionItem(editor: vscode.TextEditor | undefined): NewItem | string {
  if (!editor) return 'Open a file and select some text first.';
  const doc = editor.document;
  const sel = editor.selection;
  // A selection ending at column 0 of a line does not include that line.
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  const range = sel.isEmpty ? doc.lineAt(sel.start.line).range : new vscode.Range(sel.start, sel.end);
  const text = doc.getText(range);
  const lines: [number, number] = [sel.start.line + 1, (sel.isEmpty ? sel.start.line : endLine) + 1];
  return { kind: 'selection', path: doc.uri.fsPath, lines, text: text.length <= MAX_CONTEXT_TEXT ? text : null, size: text.length };
}

/** A file's current text (the open editor's, unsaved changes included), or a link when large or binary. */
export async function fileItem(uri: vscode.Uri): Promise<NewItem | string> {
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat || stat.type & vscode.FileType.Directory) return `${uri.fsPath} is not a file.`;
  let text: string | null = null;
  if (stat.size <= MAX_CONTEXT_TEXT) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) text = open.getText();
    else {
      const bytes = await vscode.workspace.fs.readFile(uri);
      // Binary files (a NUL byte) are linked, not embedded as mojibake.
      if (!bytes.includes(0)) text = new TextDecoder().decode(bytes);
    }
  }
  return { kind: 'file', path: uri.fsPath, lines: null, text, size: stat.size };
}

/** VS Code's diagnostics as the problems the agent is told of. */
export function problemsFor(diags: readonly vscode.Diagnostic[]): Problem[] {
  return diags.map((d) => ({
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITY[d.severity],
    message: d.message,
    source: d.source ?? null,
    code: d.code === undefined ? null : typeof d.code === 'object' ? String(d.code.value) : String(d.code),
  }));
}

/** The diagnostics VS Code shows for the active file. */
export function problemsItem(editor: vscode.TextEditor | undefined): NewItem | string {
  if (!editor) return 'Open a file first: its problems are added to the chat.';
  const uri = editor.document.uri;
  const diags = vscode.languages.getDiagnostics(uri);
  if (diags.length === 0) return `No problems in ${vscode.workspace.asRelativePath(uri, false)}.`;
  const text = formatProblems(uri.fsPath, problemsFor(diags));
  return { kind: 'problems', path: uri.fsPath, lines: null, text, size: text.length };
}
