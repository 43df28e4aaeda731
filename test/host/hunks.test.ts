/**
 * Review in the editor through the real VS Code APIs: a file a turn changed shows a Keep / Undo lens per
 * hunk (read back with vscode.executeCodeLensProvider); Undo of a hunk edits only its lines, keeps the
 * user's own edits made since, refuses a hunk on lines the user edited; the Changes summary (the same
 * change sets) follows; next / previous change move the cursor; a demo-agent edit is undone from the
 * cursor's hunk.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, ensureDemoTurn } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const onDisk = (uri: vscode.Uri) => vscode.workspace.fs.readFile(uri).then(decode, () => null);

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

async function lensTitles(uri: vscode.Uri): Promise<{ title: string; lens: vscode.CodeLens }[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses.filter((l) => l.command?.command.startsWith('acpChat.')).map((lens) => ({ title: lens.command?.title ?? '', lens }));
}

/** Polls an async fact (the lenses are asked for through a command) until it holds. */
async function untilAsync<T>(f: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const fileRow = (a: AcpChatApi, name: string) =>
  a.service
    .activeSession()
    .panelState()
    .changeSets.flatMap((s) => s.files)
    .filter((f) => f.path.endsWith(name))
    .at(-1);

const before = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].map((l) => `${l}\n`).join('');
const agents = before.replace('beta\n', 'BETA\n').replace('zeta\n', 'ZETA\nzeta 2\n').replace('kappa\n', '');

suite('Review in the editor: hunk by hunk', () => {
  test("Keep and Undo per hunk, with the user's edits since kept, and the Changes summary in step", async () => {
    const a = await api();
    await ensureDemoTurn(a);
    const chat = a.service.activeSession();
    const review = chat.review;
    const sessionId = chat.sessionId;
    assert.ok(review && sessionId);
    const uri = workspaceFile('demo-hunks.txt');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(before));
    // A turn that writes the file (what fs/write_text_file records), three hunks.
    review.turnStarted(sessionId);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(agents));
    review.wrote(sessionId, uri.fsPath, before, agents, null);
    await review.turnEnded(sessionId, [], a.transcript().at(-1)?.key ?? null);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    await until(() => editor.document.getText() === agents, "the editor shows the agent's text", 10_000);

    const lenses = await untilAsync(
      async () => {
        const l = await lensTitles(uri);
        return l.length >= 11 ? l : undefined;
      },
      10_000,
      'the lenses',
    );
    const titles = lenses.map((l) => l.title);
    assert.match(titles[0] ?? '', /: 3 changes to review$/);
    assert.deepStrictEqual(titles.slice(1, 5), ['Keep All', 'Undo All', 'Keep Turn', 'Undo Turn']);
    assert.deepStrictEqual(titles.slice(5), ['Keep', 'Undo', 'Keep', 'Undo', 'Keep', 'Undo']);
    assert.deepStrictEqual(
      lenses.slice(5).map((l) => l.lens.range.start.line),
      [1, 1, 5, 5, 9, 9],
      "each hunk's lens is on its first line",
    );

    // The user adds a line at the top and edits the agent's BETA line, in the editor (unsaved).
    const mine = new vscode.WorkspaceEdit();
    mine.insert(uri, new vscode.Position(0, 0), 'my note\n');
    mine.replace(uri, new vscode.Range(1, 0, 1, 4), 'BETA, reviewed');
    assert.ok(await vscode.workspace.applyEdit(mine));
    const now = await untilAsync(
      async () => {
        const l = await lensTitles(uri);
        return l.some((x) => x.title === 'Undo (edited since)') ? l : undefined;
      },
      10_000,
      'the edited hunk marked',
    );
    const hunkArgs = now.filter((l) => l.title.startsWith('Undo') && 'hunk' in Object(l.lens.command?.arguments?.[0])).map((l) => l.lens.command?.arguments?.[0] as unknown);
    assert.strictEqual(hunkArgs.length, 3, 'one Undo per hunk');
    // Undo of the middle hunk: only its lines change, below the user's new top line.
    await vscode.commands.executeCommand('acpChat.undoChange', hunkArgs[1]);
    await until(
      () => editor.document.getText() === 'my note\nalpha\nBETA, reviewed\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\n',
      "the ZETA hunk undone, the user's lines kept",
      10_000,
    );
    // Undo of the hunk the user edited is refused: nothing changes.
    const text = editor.document.getText();
    await vscode.commands.executeCommand('acpChat.undoChange', hunkArgs[0]);
    assert.strictEqual(editor.document.getText(), text, "the user's edit of the agent's line is not overwritten");
    // The summary counts what is left (BETA and the removed kappa).
    await until(() => fileRow(a, 'demo-hunks.txt')?.added === 1, "the summary's counts follow", 10_000);
    // Next change from the top goes to the first hunk's line; Keep at the cursor keeps it.
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('acpChat.nextChange');
    assert.strictEqual(editor.selection.active.line, 2);
    await vscode.commands.executeCommand('acpChat.keepChange');
    await untilAsync(async () => (await lensTitles(uri)).filter((l) => l.title === 'Keep').length === 1, 10_000, 'one hunk left');
    await vscode.commands.executeCommand('acpChat.previousChange');
    await vscode.commands.executeCommand('acpChat.undoFileChanges');
    await until(() => fileRow(a, 'demo-hunks.txt')?.state === 'kept', 'the file settled (kept: one hunk was kept)', 10_000);
    assert.strictEqual(editor.document.getText(), 'my note\nalpha\nBETA, reviewed\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n');
    assert.deepStrictEqual(await lensTitles(uri), [], 'no lens once the file is reviewed');
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a demo-agent edit is undone from the hunk at the cursor', async () => {
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    const beforeTurn = await onDisk(target);
    const turn = a.sendPrompt('please edit the file');
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
    await turn;
    const editor = await vscode.window.showTextDocument(target, { preview: false });
    await untilAsync(async () => (await lensTitles(target)).some((l) => l.title === 'Undo'), 10_000, "the hunk's lens");
    await vscode.commands.executeCommand('acpChat.nextChange');
    await vscode.commands.executeCommand('acpChat.undoChange');
    await untilAsync(async () => (await onDisk(target)) === beforeTurn, 10_000, 'the file back as it was');
    await until(() => fileRow(a, 'demo-edit.txt')?.state === 'undone', 'the summary shows it undone', 10_000);
    assert.strictEqual(editor.document.isDirty, false, 'the undo is saved');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
