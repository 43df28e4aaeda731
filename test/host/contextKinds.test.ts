/**
 * The richer context kinds, as the prompt box asks for them (`addContext` from Add Context or an `@` word,
 * `dropContext` for files dropped on the chat): each becomes a chip saying its size, and the next prompt
 * carries it as the ACP block the demo agent (which advertises embeddedContext) receives.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { ContentBlock } from '../../src/common/protocol/content';
import type { AcpChatApi } from '../../src/vscode/extension';

async function workspaceFile(name: string, text: string): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  const uri = vscode.Uri.file(path.join(folder.uri.fsPath, name));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

const chips = (a: AcpChatApi) => a.service.activeSession().panelState().context;

function lastUserBlocks(a: AcpChatApi): readonly ContentBlock[] {
  const users = a.transcript().filter((e) => e.kind === 'user_message');
  const last = users[users.length - 1];
  assert.ok(last && last.kind === 'user_message', 'a user message in the transcript');
  return last.content;
}

suite('Richer context: Add Context, @ words, dropped files', () => {
  test('a folder and a file dropped on the chat become chips with their sizes, and are sent embedded', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await workspaceFile('ctx-drop/one.ts', 'export const one = 1;\n');
    await workspaceFile('ctx-drop/sub/two.ts', 'export const two = 2;\n');
    const file = await workspaceFile('ctx-dropped.txt', 'dropped text\n');
    const folder = vscode.Uri.joinPath(file, '..', 'ctx-drop');
    a.service.activeSession().handleWebviewMessage({ type: 'dropContext', uris: [folder.toString(), file.toString(), 'https://example.com/x'] });
    const [f, d] = await until(() => chips(a).length === 2 && [chips(a).find((c) => c.kind === 'folder'), chips(a).find((c) => c.kind === 'file')], 'two chips', 10_000);
    assert.strictEqual(f?.label, 'ctx-drop/');
    assert.strictEqual(d?.label, 'ctx-dropped.txt');
    assert.strictEqual(d?.size, '13 B');
    assert.match(f?.detail ?? '', /one\.ts\nsub\/two\.ts/, 'the tooltip shows what will be sent');
    await a.sendPrompt('look at these');
    const resources = lastUserBlocks(a).filter((b) => b.type === 'resource');
    const texts = resources.map((b) => (b.type === 'resource' && 'text' in b.resource ? b.resource.text : ''));
    assert.deepStrictEqual(texts, ['one.ts\nsub/two.ts', 'dropped text\n']);
  });

  test("Add Context → Open Editors adds every open file; @problems adds the workspace's problems", async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const x = await workspaceFile('ctx-open-x.ts', 'const x = 1;\n');
    const y = await workspaceFile('ctx-open-y.ts', 'const y: number = "y";\n');
    await vscode.window.showTextDocument(x, { viewColumn: vscode.ViewColumn.One, preview: false });
    await vscode.window.showTextDocument(y, { viewColumn: vscode.ViewColumn.One, preview: false });
    const w = vscode.window as unknown as Record<string, unknown>;
    const saved = w['showQuickPick'];
    w['showQuickPick'] = async (items: readonly { source?: string }[]) => items.find((i) => i.source === 'editors');
    try {
      a.service.activeSession().handleWebviewMessage({ type: 'addContext', source: 'pick' });
      await until(() => ['ctx-open-x.ts', 'ctx-open-y.ts'].every((l) => chips(a).some((c) => c.label === l)), 'a chip per open editor', 10_000);
    } finally {
      w['showQuickPick'] = saved;
    }
    for (const c of chips(a)) a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: c.id });
    const diags = vscode.languages.createDiagnosticCollection('acp-chat-test-ctx');
    try {
      const d = new vscode.Diagnostic(new vscode.Range(0, 6, 0, 7), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error);
      diags.set(y, [d]);
      a.service.activeSession().handleWebviewMessage({ type: 'addContext', source: 'workspaceProblems' });
      const chip = await until(() => chips(a).find((c) => c.kind === 'problems'), 'the problems chip', 10_000);
      assert.match(chip.label, /^Problems: workspace \(\d+\)$/);
      await a.sendPrompt('fix the problems');
      const res = lastUserBlocks(a).find((b) => b.type === 'resource');
      assert.ok(res && res.type === 'resource' && 'text' in res.resource && typeof res.resource.text === 'string');
      assert.match(res.resource.text, /ctx-open-y\.ts:1:7 error: Type 'string' is not assignable/);
    } finally {
      diags.dispose();
    }
  });

  test('@symbol: a symbol found by name through workspace symbol search becomes a chip of its lines, sent embedded', async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    for (const c of chips(a)) a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: c.id });
    const file = await workspaceFile('ctx-symbol.ts', 'const before = 0;\nexport function greet(name: string) {\n  return `hi ${name}`;\n}\nconst after = 1;\n');
    // What a language server would answer (the test host runs none for .ts).
    const provider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (query) =>
        'greet'.startsWith(query) ? [new vscode.SymbolInformation('greet', vscode.SymbolKind.Function, '', new vscode.Location(file, new vscode.Range(1, 0, 3, 1)))] : [],
    });
    const w = vscode.window as unknown as Record<string, unknown>;
    const saved = { input: w['showInputBox'], pick: w['showQuickPick'] };
    w['showInputBox'] = async () => 'gre';
    w['showQuickPick'] = async (items: readonly { label?: string }[]) => items.find((i) => i.label?.includes('greet'));
    try {
      a.service.activeSession().handleWebviewMessage({ type: 'addContext', source: 'symbol' });
      const chip = await until(() => chips(a).find((c) => c.kind === 'symbol'), 'the symbol chip', 10_000);
      assert.strictEqual(chip.label, 'greet');
      assert.match(chip.size, /B$/);
    } finally {
      w['showInputBox'] = saved.input;
      w['showQuickPick'] = saved.pick;
      provider.dispose();
    }
    await a.sendPrompt('explain greet');
    const res = lastUserBlocks(a).find((b) => b.type === 'resource');
    assert.ok(res && res.type === 'resource' && 'text' in res.resource, 'the symbol is embedded');
    assert.strictEqual(res.resource.text, 'export function greet(name: string) {\n  return `hi ${name}`;\n}');
    assert.match(res.resource.uri, /ctx-symbol\.ts#L2-4$/);
  });

  test("the terminal's last command and its selection become chips; the selection is sent embedded", async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    for (const c of chips(a)) a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: c.id });
    // A real terminal with shell integration (bash, which VS Code injects it into).
    const terminal = vscode.window.createTerminal({ name: 'ctx-term', shellPath: '/bin/bash' });
    try {
      terminal.show();
      const shell = await until(() => terminal.shellIntegration, "the terminal's shell integration", 30_000);
      await until(() => vscode.window.activeTerminal === terminal, 'the terminal is active', 10_000);
      const ended = new Promise<void>((resolve) => {
        const sub = vscode.window.onDidEndTerminalShellExecution((e) => e.terminal === terminal && (sub.dispose(), resolve()));
      });
      shell.executeCommand('echo ctx-$((20+22))-output');
      await ended;
      // The last command's chip names it, with its output or, when the output came before VS Code reported the
      // command started (in this host it comes in the same chunk as the shell's command-start mark), the words
      // that none was captured: never an empty output the agent would take for the command's.
      a.service.activeSession().handleWebviewMessage({ type: 'addContext', source: 'terminalCommand' });
      const command = await until(() => chips(a).find((c) => c.kind === 'terminal'), 'the last-output chip', 10_000);
      assert.strictEqual(command.label, 'Terminal: echo ctx-$((20+22))-output');
      assert.match(command.detail, /^ctx-term — \d+ B, sent as text[^]*\n\$ echo ctx-\$\(\(20\+22\)\)-output\n/);
      assert.match(command.detail, /\n\$ echo ctx-\$\(\(20\+22\)\)-output\n(ctx-42-output|\(no output was captured)/);
      a.service.activeSession().handleWebviewMessage({ type: 'removeContext', id: command.id });
      // Its selection: everything in it, copied through VS Code's own command (the clipboard put back).
      await vscode.env.clipboard.writeText('the user clipboard');
      await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
      a.service.activeSession().handleWebviewMessage({ type: 'addContext', source: 'terminalSelection' });
      const selection = await until(() => chips(a).find((c) => c.kind === 'terminal'), 'the selection chip', 10_000);
      assert.strictEqual(selection.label, 'Terminal selection (ctx-term)');
      assert.strictEqual(await vscode.env.clipboard.readText(), 'the user clipboard', 'the clipboard is put back');
      await a.sendPrompt('what did it print');
      const res = lastUserBlocks(a).find((b) => b.type === 'resource');
      assert.ok(res && res.type === 'resource' && 'text' in res.resource, 'the selection is embedded');
      assert.match(String(res.resource.text), /ctx-42-output/);
    } finally {
      terminal.dispose();
    }
  });
});
