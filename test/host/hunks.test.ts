/**
 * Review in the editor through the real VS Code APIs: a file a turn changed shows a Keep / Undo lens per
 * hunk (read back with vscode.executeCodeLensProvider); Undo of a hunk edits only its lines, keeps the
 * user's own edits made since, refuses a hunk on lines the user edited; the Changes summary (the same
 * change sets) follows; next / previous change move the cursor; a demo-agent edit is undone from the
 * cursor's hunk, and the editor's own undo and redo of that Undo are followed by the summary and the card;
 * so are a Ctrl+Z of one hunk's Undo, of a created file's deletion, and a file open in no editor changed
 * by another tool (the review's file watcher).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, ensureDemoTurn, withDialogs } from './util';
import { until } from '../helpers/until.mjs';
import { cardReviews } from '../../src/common/changes/toolCards';
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

const fileRow = (a: AcpChatApi, name: string) =>
  a.service
    .activeSession()
    .panelState()
    .changeSets.flatMap((s) => s.files)
    .filter((f) => f.path.endsWith(name))
    .at(-1);

const before = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].map((l) => `${l}\n`).join('');
const agents = before.replace('beta\n', 'BETA\n').replace('zeta\n', 'ZETA\nzeta 2\n').replace('kappa\n', '');

/** The active chat after a demo turn: its review and attached session, through which a test writes its own turn. */
async function demoReview() {
  const a = await api();
  await ensureDemoTurn(a);
  const { review, sessionId } = a.service.activeSession();
  assert.ok(review && sessionId);
  return { a, review, sessionId };
}

/** A turn of the active chat writing each file (`old` null: the turn creates it), as fs/write_text_file records it. */
async function turnWriting(files: readonly (readonly [vscode.Uri, string | null, string])[]) {
  const { a, review, sessionId } = await demoReview();
  for (const [uri, old] of files)
    if (old === null) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(old));
  review.turnStarted(sessionId);
  for (const [uri, old, text] of files) {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    review.wrote(sessionId, uri.fsPath, old, text, null);
  }
  await review.turnEnded(sessionId, [], a.transcript().at(-1)?.key ?? null);
  return { a, review, sessionId };
}

suite('Review in the editor: hunk by hunk', () => {
  test("Keep and Undo per hunk, with the user's edits since kept, and the Changes summary in step", async () => {
    const uri = workspaceFile('demo-hunks.txt');
    // A turn that writes the file, three hunks.
    const { a } = await turnWriting([[uri, before, agents]]);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    await until(() => editor.document.getText() === agents, "the editor shows the agent's text", 10_000);

    const lenses = await until(
      async () => {
        const l = await lensTitles(uri);
        return l.length >= 11 ? l : undefined;
      },
      'the lenses',
      10_000,
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
    const now = await until(
      async () => {
        const l = await lensTitles(uri);
        return l.some((x) => x.title === 'Undo (edited since)') ? l : undefined;
      },
      'the edited hunk marked',
      10_000,
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
    await until(async () => (await lensTitles(uri)).filter((l) => l.title === 'Keep').length === 1, 'one hunk left', 10_000);
    await vscode.commands.executeCommand('acpChat.previousChange');
    await vscode.commands.executeCommand('acpChat.undoFileChanges');
    await until(() => fileRow(a, 'demo-hunks.txt')?.state === 'kept', 'the file settled (kept: one hunk was kept)', 10_000);
    assert.strictEqual(editor.document.getText(), 'my note\nalpha\nBETA, reviewed\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n');
    assert.deepStrictEqual(await lensTitles(uri), [], 'no lens once the file is reviewed');
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a demo-agent edit is undone from the hunk at the cursor, and its tool card is told it was undone', async () => {
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    // A file that is there before the turn (run alone, the demo agent would create it, and Undo delete it).
    if ((await onDisk(target)) === null) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('notes\n'));
    const beforeTurn = await onDisk(target);
    const turn = a.sendPrompt('please edit the file');
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
    await turn;
    const card = a.transcript().findLast((e) => e.kind === 'tool_call' && e.title === 'Edit demo-edit.txt');
    assert.ok(card, "the edit's tool card");
    await until(() => fileRow(a, 'demo-edit.txt')?.tools?.includes(card.key), 'the change names the card that made it', 10_000);
    assert.strictEqual(cardReviews(a.service.activeSession().panelState().changeSets).get(card.key), undefined, 'nothing reviewed yet');
    // The change sets every panel of the chat is sent from here on (its model's `changeSet` deltas).
    const sent = new Map(
      a.service
        .activeSession()
        .panelState()
        .changeSets.map((set) => [set.id, set]),
    );
    const sub = a.service.activeSession().onDidChange((deltas) => {
      for (const d of deltas) if (d.type === 'changeSet') void (d.set ? sent.set(d.id, d.set) : sent.delete(d.id));
    });
    const editor = await vscode.window.showTextDocument(target, { preview: false });
    await until(async () => (await lensTitles(target)).some((l) => l.title === 'Undo'), "the hunk's lens", 10_000);
    await vscode.commands.executeCommand('acpChat.nextChange');
    await vscode.commands.executeCommand('acpChat.undoChange');
    await until(async () => (await onDisk(target)) === beforeTurn, 'the file back as it was', 10_000);
    await until(() => fileRow(a, 'demo-edit.txt')?.state === 'undone', 'the summary shows it undone', 10_000);
    await until(() => cardReviews([...sent.values()]).get(card.key)?.label === 'Undone', 'the card state sent to the panel: Undone', 10_000);
    assert.strictEqual(editor.document.isDirty, false, 'the undo is saved');
    const agentsText = await until(
      () =>
        a.service
          .activeSession()
          .review?.state.sets.findLast((s) => s.files.some((f) => f.path === target.fsPath))
          ?.files.find((f) => f.path === target.fsPath)?.agentText,
      "the agent's text",
    );
    // The editor's own undo of that Undo: the agent's text is back, and the summary and the card follow it.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    await until(() => editor.document.getText() === agentsText, "the agent's text back in the editor", 10_000);
    await until(() => fileRow(a, 'demo-edit.txt')?.state === 'pending', 'the summary leaves Undone', 10_000);
    await until(() => cardReviews([...sent.values()]).get(card.key) === undefined, 'the card sent to the panel leaves Undone', 10_000);
    // And its redo: undone again.
    await vscode.commands.executeCommand('redo');
    await until(() => fileRow(a, 'demo-edit.txt')?.state === 'undone', 'the summary follows the redo', 10_000);
    await until(() => cardReviews([...sent.values()]).get(card.key)?.label === 'Undone', 'the card follows the redo', 10_000);
    sub.dispose();
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test("Undo Turn: every file of the turn in one step, one question for the file the user edited since, the user's edit kept", async () => {
    const one = workspaceFile('turn-one.txt');
    const two = workspaceFile('turn-two.txt');
    const made = workspaceFile('turn-new.txt');
    const { a } = await turnWriting([
      [one, before, agents],
      [two, 'two\n', 'TWO\n'],
      [made, null, 'made by the agent\n'],
    ]);
    const editor = await vscode.window.showTextDocument(one, { preview: false });
    await until(() => editor.document.getText() === agents, "the editor shows the agent's text", 10_000);
    await until(async () => (await lensTitles(one)).some((l) => l.title === 'Undo Turn'), 'the Undo Turn lens', 10_000);
    // The user edits the agent's BETA line (unsaved): that hunk is theirs now.
    const mine = new vscode.WorkspaceEdit();
    mine.replace(one, new vscode.Range(1, 0, 1, 4), 'BETA, mine');
    assert.ok(await vscode.workspace.applyEdit(mine));
    const asked = await withDialogs('Undo All', async () => {
      await vscode.commands.executeCommand('acpChat.undoTurnChanges');
    });
    assert.strictEqual(asked.length, 1, 'one question for the whole turn');
    assert.match(asked[0] ?? '', /turn-one\.txt changed after .*'s edit\. Undo All keeps your edits there/);
    await until(() => editor.document.getText() === before.replace('beta', 'BETA, mine'), "the agent's other hunks undone, the user's line kept", 10_000);
    assert.strictEqual(await onDisk(two), 'two\n', 'the other file back as it was');
    assert.strictEqual(await onDisk(made), null, 'the file the agent created is gone');
    assert.strictEqual(fileRow(a, 'turn-two.txt')?.state, 'undone');
    assert.strictEqual(fileRow(a, 'turn-one.txt')?.state, 'pending', "the user's hunk stays to review");
    // Only the hunk on lines the user edited is left: Undo Turn asks nothing, undoes nothing, and says why.
    const text = editor.document.getText();
    const again = await withDialogs(undefined, async () => {
      await vscode.commands.executeCommand('acpChat.undoTurnChanges');
    });
    assert.strictEqual(again.length, 1);
    assert.match(again[0] ?? '', /^Undid 0 of 1 files\. Left alone: (ws\/)?turn-one\.txt \(was edited by you on every line/);
    assert.strictEqual(editor.document.getText(), text);
    assert.strictEqual(fileRow(a, 'turn-one.txt')?.state, 'conflict');
    await vscode.commands.executeCommand('acpChat.keepTurnChanges');
    await until(() => fileRow(a, 'turn-one.txt')?.state === 'kept', 'Keep Turn settles what is left', 10_000);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test("Ctrl+Z of one hunk's Undo while the file's other hunks are pending: that hunk is pending again, with its lens, and the count drops", async () => {
    const uri = workspaceFile('follow-hunk.txt');
    const { a } = await turnWriting([[uri, before, agents]]);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    await until(() => editor.document.getText() === agents, "the editor shows the agent's text", 10_000);
    const undoLenses = async () => (await lensTitles(uri)).filter((l) => l.title === 'Undo');
    const three = await until(async () => ((await undoLenses()).length === 3 ? await undoLenses() : undefined), 'three Undo lenses', 10_000);
    await vscode.commands.executeCommand('acpChat.undoChange', three[1]?.lens.command?.arguments?.[0]);
    await until(() => !editor.document.getText().includes('ZETA'), 'the middle hunk undone', 10_000);
    await until(() => fileRow(a, 'follow-hunk.txt')?.hunks?.undone === 1, 'one hunk counted undone', 10_000);
    assert.strictEqual((await undoLenses()).length, 2);
    // The editor's own undo: the hunk is back, pending again with its lens; the count drops.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    await until(() => editor.document.getText() === agents, "the hunk's text back", 10_000);
    await until(() => fileRow(a, 'follow-hunk.txt')?.hunks?.undone === 0, 'the undone count drops', 10_000);
    assert.strictEqual(fileRow(a, 'follow-hunk.txt')?.state, 'pending');
    await until(async () => (await undoLenses()).length === 3, 'its lens is back', 10_000);
    // Its redo: undone again.
    await vscode.commands.executeCommand('redo');
    await until(() => fileRow(a, 'follow-hunk.txt')?.hunks?.undone === 1, 'the redo is followed', 10_000);
    await until(async () => (await undoLenses()).length === 2, 'two lenses again', 10_000);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test("a created file's deletion by Undo Turn: Ctrl+Z brings it back (pending), redo deletes it again (undone)", async () => {
    const made = workspaceFile('follow-created.txt');
    const pair = workspaceFile('follow-pair.txt');
    const { a } = await turnWriting([
      [pair, before, agents],
      [made, null, 'made by the agent\n'],
    ]);
    const editor = await vscode.window.showTextDocument(pair, { preview: false });
    await until(() => editor.document.getText() === agents, "the editor shows the agent's text", 10_000);
    await until(async () => (await lensTitles(pair)).some((l) => l.title === 'Undo Turn'), 'the Undo Turn lens', 10_000);
    // Undo Turn is one edit: the edited file back, the created one deleted.
    await vscode.commands.executeCommand('acpChat.undoTurnChanges');
    await until(async () => (await onDisk(made)) === null, 'the created file is deleted', 10_000);
    await until(() => fileRow(a, 'follow-created.txt')?.state === 'undone', 'undone', 10_000);
    // The editor's undo of that edit brings the created file back: no editor shows it, the watcher does.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    await until(async () => (await onDisk(made)) === 'made by the agent\n', 'Ctrl+Z brings the file back', 10_000);
    await until(() => fileRow(a, 'follow-created.txt')?.state === 'pending', 'the summary follows: pending', 10_000);
    await vscode.commands.executeCommand('redo');
    await until(async () => (await onDisk(made)) === null, 'redo deletes it again', 10_000);
    await until(() => fileRow(a, 'follow-created.txt')?.state === 'undone', 'the summary follows: undone', 10_000);
    await vscode.commands.executeCommand('workbench.action.files.save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a file open in no editor is followed through the review’s watcher (another tool puts it back, then the agent’s text)', async () => {
    const { a, review, sessionId } = await demoReview();
    const uri = workspaceFile('follow-closed.txt');
    await fs.promises.writeFile(uri.fsPath, before);
    review.turnStarted(sessionId);
    await fs.promises.writeFile(uri.fsPath, agents);
    review.wrote(sessionId, uri.fsPath, before, agents, null);
    await review.turnEnded(sessionId, [], a.transcript().at(-1)?.key ?? null);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === uri.fsPath), 'no editor holds the file');
    await until(() => fileRow(a, 'follow-closed.txt')?.state === 'pending', 'pending', 10_000);
    await fs.promises.writeFile(uri.fsPath, before);
    await until(() => fileRow(a, 'follow-closed.txt')?.state === 'undone', 'the outside undo is followed', 10_000);
    await fs.promises.writeFile(uri.fsPath, agents);
    await until(() => fileRow(a, 'follow-closed.txt')?.state === 'pending', "the agent's text again: pending", 10_000);
  });
});
