/**
 * Rewind through the real VS Code APIs: a branch at an earlier user message undoes the Changes of the
 * turns after it (one workspace edit, after a modal that lists the files), opens a new chat that records
 * its origin and whose first prompt carries the earlier transcript, and leaves the original chat as it
 * was; a file changed since the agent's edit is refused by name and left alone.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, until } from './util';
import type { AcpChatApi } from '../../src/vscode/api';
import { RewindCommands } from '../../src/vscode/rewindCommands';
import { isCarriedBlock } from '../../src/common/rewind/branchPlan';

const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const onDisk = (uri: vscode.Uri) => vscode.workspace.fs.readFile(uri).then(decode, () => null);

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host opens a workspace folder');
  return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

/** Answers the modal dialogs with `answer` while `run` runs; returns their messages. */
async function withDialogs(answer: string | undefined, run: () => Promise<void>): Promise<string[]> {
  const w = vscode.window as unknown as Record<string, unknown>;
  const saved = w['showWarningMessage'];
  const shown: string[] = [];
  w['showWarningMessage'] = (message: string) => {
    shown.push(message);
    return Promise.resolve(answer);
  };
  try {
    await run();
  } finally {
    w['showWarningMessage'] = saved;
  }
  return shown;
}

/** A turn in the focused chat, allowing the edit it asks permission for. */
async function turn(a: AcpChatApi, prompt: string): Promise<void> {
  const done = a.sendPrompt(prompt);
  if (/edit/.test(prompt)) {
    const request = await until(() => a.pendingPermissions()[0], 30_000, 'a permission request');
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
  }
  await done;
  const source = a.service.activeSession();
  await until(() => source.panelState().changeSets.length > 0 || !/edit/.test(prompt), 10_000, 'the turn\'s Changes summary');
}

async function freshChat(a: AcpChatApi) {
  await a.service.newChat();
  await a.whenPanelReady();
  const chat = a.service.activeSession();
  await chat.start();
  return chat;
}

suite('Rewind: edit an earlier message, code goes back too', () => {
  test('branching at an earlier message undoes the later turns\' edits and opens a new chat carrying the transcript', async function () {
    // Three demo turns (two in the source, the branch's first) on a shared machine.
    this.timeout(180_000);
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('base\n'));
    const source = await freshChat(a);
    const sourceId = a.service.chatIdOf(source);
    await turn(a, 'a first question');
    await turn(a, 'please edit the file');
    assert.notStrictEqual(await onDisk(target), 'base\n', 'the agent edited the file');
    const sessionId = source.sessionId;
    assert.ok(sessionId !== null && sourceId !== undefined);
    const users = source.entries().filter((e) => e.kind === 'user_message');
    const second = users[1];
    assert.ok(second);
    const entriesBefore = source.entries().length;

    let branchId: unknown;
    const shown = await withDialogs('Undo Changes and Branch', async () => {
      branchId = await vscode.commands.executeCommand(RewindCommands.branch, { chatId: sourceId, sessionId, key: second.key, prompt: { text: 'tell me more instead', images: [] } });
    });
    assert.strictEqual(shown.length, 1, 'one question before the branch runs');
    assert.match(shown[0] ?? '', /Files put back: demo-edit\.txt/);
    assert.strictEqual(await onDisk(target), 'base\n', 'the file went back to before the edited message');
    assert.ok(typeof branchId === 'string' && branchId !== sourceId, 'a new chat');
    assert.deepStrictEqual(a.service.originOf(branchId), { kind: 'forked', chatId: sourceId, sessionId, messageKey: second.key });

    const branch = a.service.chat(branchId);
    assert.ok(branch);
    const first = await until(() => branch.entries().find((e) => e.kind === 'user_message'), 30_000, 'the branch\'s first prompt');
    assert.ok(first.kind === 'user_message');
    const carried = first.content.filter(isCarriedBlock);
    assert.strictEqual(carried.length, 2, 'the lead line and the transcript are shown with the prompt');
    const transcript = carried.find((b) => b.type === 'resource');
    assert.ok(transcript?.type === 'resource' && 'text' in transcript.resource);
    assert.match(String(transcript.resource.text), /a first question/);
    assert.doesNotMatch(String(transcript.resource.text), /please edit the file/);
    assert.ok(first.content.some((b) => b.type === 'text' && b.text === 'tell me more instead'));
    await branch.whenIdle();
    assert.strictEqual(source.entries().length, entriesBefore, 'the original chat is unchanged');
  });

  test('a file changed since the agent\'s edit is named and left alone; declining keeps the files', async () => {
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('base\n'));
    const source = await freshChat(a);
    const sourceId = a.service.chatIdOf(source);
    await turn(a, 'please edit the file');
    const sessionId = source.sessionId;
    const message = source.entries().find((e) => e.kind === 'user_message');
    assert.ok(message && sessionId !== null && sourceId !== undefined);
    // The user edits the file after the agent did.
    const mine = `${(await onDisk(target)) ?? ''}my own line\n`;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(mine));

    const shown = await withDialogs('Branch, Keep Files', async () => {
      await vscode.commands.executeCommand(RewindCommands.branch, { chatId: sourceId, sessionId, key: message.key, prompt: { text: 'again', images: [] } });
    });
    assert.strictEqual(shown.length, 1);
    assert.match(shown[0] ?? '', /Left as they are: demo-edit\.txt \(it changed after .*'s edit\)/);
    assert.match(shown[0] ?? '', /No file can be put back/);
    assert.strictEqual(await onDisk(target), mine, 'the user\'s text is not overwritten');
  });
});
