/**
 * The richer context kinds (Add Context, `@` kinds, files dropped on the chat): open editors, the
 * workspace's problems, a workspace symbol, the terminal's selection or last command output, and a
 * folder. Each gathers text with a bound and returns a context item (or why there is none); what
 * crosses the wire is decided in src/common/context.ts.
 */
import * as vscode from 'vscode';
import { formatProblems, MAX_CONTEXT_TEXT, type Problem } from '../../common/context';
import { fileItem, problemsFor, type NewItem } from './contextItems';

/** At most this many open editors, folder entries or problems: a chip stands for a bounded amount. */
const MAX_EDITORS = 20;
const MAX_FOLDER_FILES = 500;
const MAX_PROBLEMS = 500;
/** The last command's output kept per terminal (its end, where the result and errors are). */
const MAX_COMMAND_OUTPUT = 64 * 1024;
const EXCLUDE = '**/{node_modules,.git,dist,out,.cache,.vscode-host}/**';

/** Every file open in an editor tab (text files on disk), each as a file item. */
export async function openEditorItems(): Promise<NewItem[] | string> {
  const uris = new Map<string, vscode.Uri>();
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') uris.set(tab.input.uri.toString(), tab.input.uri);
  }
  if (uris.size === 0) return 'No files are open in the editor.';
  const items: NewItem[] = [];
  for (const uri of [...uris.values()].slice(0, MAX_EDITORS)) {
    const item = await fileItem(uri);
    if (typeof item !== 'string') items.push(item);
  }
  return items;
}

/** The problems of every file VS Code has diagnostics for, one line each, grouped by file. */
export function workspaceProblemsItem(): NewItem | string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const lines: string[] = [];
  let count = 0;
  for (const [uri, diags] of vscode.languages.getDiagnostics()) {
    if (diags.length === 0 || count >= MAX_PROBLEMS) continue;
    const problems: Problem[] = problemsFor(diags.slice(0, MAX_PROBLEMS - count));
    count += problems.length;
    lines.push(formatProblems(vscode.workspace.asRelativePath(uri, false), problems));
  }
  if (count === 0) return 'No problems in the workspace.';
  const text = lines.join('\n');
  return { kind: 'problems', path: root ?? '', lines: null, text, size: text.length, label: `Problems: workspace (${count})` };
}

/** A symbol's source: the lines of its range in its file. */
export async function symbolItem(symbol: vscode.SymbolInformation): Promise<NewItem | string> {
  const doc = await Promise.resolve(vscode.workspace.openTextDocument(symbol.location.uri)).catch(() => undefined);
  if (!doc) return `Could not read ${symbol.location.uri.fsPath}.`;
  const r = symbol.location.range;
  const range = new vscode.Range(r.start.line, 0, r.end.line, doc.lineAt(Math.min(r.end.line, doc.lineCount - 1)).text.length);
  const text = doc.getText(range);
  return {
    kind: 'symbol',
    path: doc.uri.fsPath,
    lines: [r.start.line + 1, r.end.line + 1],
    text: text.length <= MAX_CONTEXT_TEXT ? text : null,
    size: text.length,
    label: symbol.name,
  };
}

/** Workspace symbols for a query, through the language servers VS Code runs. */
export async function findSymbols(query: string): Promise<vscode.SymbolInformation[]> {
  const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
  return (found ?? []).slice(0, 50);
}

/** The files under a folder (relative to it, one per line), as the agent would list them. */
export async function folderItem(uri: vscode.Uri): Promise<NewItem | string> {
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*'), EXCLUDE, MAX_FOLDER_FILES + 1);
  const rel = files.map((f) => f.path.slice(uri.path.replace(/\/$/, '').length + 1)).sort();
  const more = rel.length > MAX_FOLDER_FILES ? `\n… and more (the first ${MAX_FOLDER_FILES} are listed)` : '';
  const text = rel.slice(0, MAX_FOLDER_FILES).join('\n') + more;
  return { kind: 'folder', path: uri.fsPath, lines: null, text, size: text.length };
}

/** Dropped on the chat: each file or folder (file: URIs only; anything else is skipped). */
export async function droppedItems(uris: readonly string[]): Promise<NewItem[]> {
  const items: NewItem[] = [];
  for (const raw of uris) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(raw, true);
    } catch {
      continue;
    }
    if (uri.scheme !== 'file') continue;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat) continue;
    const item = stat.type & vscode.FileType.Directory ? await folderItem(uri) : await fileItem(uri);
    if (typeof item !== 'string') items.push(item);
  }
  return items;
}

/**
 * The terminal's selection. VS Code 1.100 gives extensions no terminal selection, so its own Copy
 * command copies it and the clipboard is put back as it was.
 */
export async function terminalSelectionItem(): Promise<NewItem | string> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return 'Open a terminal and select some text in it first.';
  const saved = await vscode.env.clipboard.readText();
  const marker = `acp-chat-no-selection-${Date.now()}`;
  await vscode.env.clipboard.writeText(marker);
  await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
  const text = await vscode.env.clipboard.readText();
  await vscode.env.clipboard.writeText(saved);
  if (text === marker || text === '') return `Select some text in the terminal ${terminal.name} first.`;
  const kept = text.length <= MAX_COMMAND_OUTPUT ? text : text.slice(-MAX_COMMAND_OUTPUT);
  return { kind: 'terminal', path: terminal.name, lines: null, text: kept, size: kept.length, label: `Terminal selection (${terminal.name})` };
}

/** What each terminal's last command printed, kept from shell integration's stream (the end of it, bounded). */
const lastCommands = new WeakMap<vscode.Terminal, { commandLine: string; output: string }>();

/** Follows commands run in terminals with shell integration (call once, at activation). */
export function trackTerminalCommands(): vscode.Disposable {
  return vscode.window.onDidStartTerminalShellExecution(async ({ terminal, execution }) => {
    const entry = { commandLine: execution.commandLine.value, output: '' };
    lastCommands.set(terminal, entry);
    for await (const data of execution.read()) {
      entry.output = (entry.output + data).slice(-MAX_COMMAND_OUTPUT);
    }
  });
}

/** A last command's chip text when none of its output reached the extension. */
const NO_OUTPUT = '(no output was captured: VS Code passes on what a command prints only once it has reported the command started)';

export function lastCommandItem(): NewItem | string {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return 'Open a terminal and run a command first.';
  const last = lastCommands.get(terminal);
  if (!last) return `No command output from ${terminal.name} yet: it shows once a command has run in it with shell integration on.`;
  // VS Code hands over a command's output only from its start event on: a command that prints at once can
  // print before it (the host test's `echo` did), so the agent is told that nothing was captured rather
  // than given an empty output it would read as the command's.
  const output = withoutEscapes(last.output);
  const text = `$ ${last.commandLine}\n${output.trim() === '' ? NO_OUTPUT : output}`;
  return { kind: 'terminal', path: terminal.name, lines: null, text, size: text.length, label: `Terminal: ${last.commandLine.slice(0, 40)}` };
}

/** Terminal output without its colour and cursor escapes (and the shell integration's own OSC marks). */
function withoutEscapes(s: string): string {
  return s
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[@-_]/g, '')
    .replace(/\r(?!\n)/g, '');
}
