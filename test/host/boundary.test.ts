/**
 * The workspace boundary of the VS Code fs handlers, in the real extension host with its real workspace
 * folder: paths are judged by where they really point, outside needs the user's answer (scripted here in
 * place of the modal dialog), and "Allow for This Session" is remembered for that session only.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { OutsideWorkspacePolicy } from '../../src/common/boundary';
import { FileAccess } from '../../src/vscode/workspace/fsHandlers';

suite('Workspace boundary (fs/* and terminal cwd)', () => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const ws = folder ? fs.realpathSync(folder.uri.fsPath) : '';
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-boundary-')));
  const inWs = (...p: string[]) => path.join(ws, 'boundary-test', ...p);
  const log = vscode.window.createOutputChannel('ACP Chat boundary test', { log: true });
  let policy: OutsideWorkspacePolicy = 'ask';
  let asked: { message: string; detail: string }[] = [];
  let answer: string | undefined;
  /** Runs while the dialog is up: what a racing agent does between the consent and the write. */
  let duringDialog: () => void = () => undefined;
  const files = new FileAccess(
    log,
    undefined,
    () => policy,
    async (message, detail) => {
      asked.push({ message, detail });
      duringDialog();
      return answer;
    },
  );
  const who = { agentName: 'Hostile [agent](command:workbench.action.quit)', sessionId: 's1', scope: 'chat-1' };

  suiteSetup(() => {
    assert.ok(folder, 'the test host opens a workspace folder');
    fs.mkdirSync(inWs(), { recursive: true });
    fs.writeFileSync(inWs('inside.txt'), 'inside\n');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n');
    fs.symlinkSync(outside, inWs('link'));
    fs.symlinkSync(path.join(outside, 'planted.txt'), inWs('dangling'));
  });
  suiteTeardown(() => {
    fs.rmSync(inWs(), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    log.dispose();
  });
  setup(() => {
    policy = 'ask';
    asked = [];
    answer = undefined;
    duringDialog = () => undefined;
  });

  test('inside the workspace: read and write without asking', async () => {
    assert.strictEqual(await files.agentRead({ path: inWs('inside.txt') }, who), 'inside\n');
    await files.agentWrite(inWs('written.txt'), 'ok\n', who);
    assert.strictEqual(fs.readFileSync(inWs('written.txt'), 'utf8'), 'ok\n');
    await files.checkTerminalCwd(inWs(), who);
    assert.deepStrictEqual(asked, []);
  });

  test('`..` and a symlink out are outside: the user is asked, and a refusal is an error that says why', async () => {
    // Climb from the test folder to `/` with `..`, then down to the outside file.
    const climb = `${inWs()}${'/..'.repeat(inWs().split(path.sep).length - 1)}${outside}/secret.txt`;
    for (const p of [climb, inWs('link', 'secret.txt')]) {
      asked = [];
      await assert.rejects(files.agentRead({ path: p }, who), /did not allow reading .*secret\.txt \(outside the workspace\)/);
      assert.strictEqual(asked.length, 1, p);
      assert.match(asked[0]!.message, /wants to read a file outside the workspace/);
      assert.doesNotMatch(asked[0]!.message, /\]\(command:/, 'the agent name cannot form a link');
      assert.ok(asked[0]!.detail.includes(path.join(outside, 'secret.txt')), `the detail names the real path: ${asked[0]!.detail}`);
    }
  });

  test('a write through a dangling symlink is judged by its target and nothing is created when refused', async () => {
    await assert.rejects(files.agentWrite(inWs('dangling'), 'pwned', who), /did not allow writing/);
    assert.match(asked[0]?.message ?? '', /write a file/);
    assert.strictEqual(fs.existsSync(path.join(outside, 'planted.txt')), false);
  });

  test('"Allow for This Session" is remembered for that folder and session only', async () => {
    answer = 'Allow for This Session';
    assert.strictEqual(await files.agentRead({ path: inWs('link', 'secret.txt') }, who), 'SECRET\n');
    answer = undefined;
    assert.strictEqual(await files.agentRead({ path: path.join(outside, 'secret.txt') }, who), 'SECRET\n');
    assert.strictEqual(asked.length, 1, 'asked once, then remembered');
    await assert.rejects(files.agentRead({ path: path.join(outside, 'secret.txt') }, { ...who, sessionId: 's2' }), /did not allow/);
    await assert.rejects(files.agentWrite(path.join(outside, 'x.txt'), 'x', who), /did not allow writing/, 'a read grant is not a write grant');
    assert.strictEqual(asked.length, 3);
  });

  test('"Deny for This Session" stops the dialogs for that kind of access in that session', async () => {
    const s = { ...who, sessionId: 'spammer' };
    answer = 'Deny for This Session';
    await assert.rejects(files.agentRead({ path: path.join(outside, 'secret.txt') }, s), /did not allow reading/);
    for (let i = 0; i < 5; i++) await assert.rejects(files.agentRead({ path: path.join(outside, `f${i}.txt`) }, s), /denied this for the session/);
    assert.strictEqual(asked.length, 1);
    answer = undefined;
    await assert.rejects(files.checkTerminalCwd(outside, s), /did not allow a terminal in/);
    assert.strictEqual(asked.length, 2, 'a terminal is still asked about');
  });

  test('acpChat.outsideWorkspace: deny refuses without asking, allowRead reads, allow never asks', async () => {
    policy = 'deny';
    await assert.rejects(files.agentRead({ path: path.join(outside, 'secret.txt') }, { ...who, sessionId: 's3' }), /outside the workspace and acpChat\.outsideWorkspace is "deny"/);
    await assert.rejects(files.checkTerminalCwd(outside, { ...who, sessionId: 's3' }), /"deny"/);
    assert.deepStrictEqual(asked, []);
    policy = 'allowRead';
    assert.strictEqual(await files.agentRead({ path: path.join(outside, 'secret.txt') }, { ...who, sessionId: 's3' }), 'SECRET\n');
    await assert.rejects(files.checkTerminalCwd(outside, { ...who, sessionId: 's3' }), /did not allow a terminal in/);
    assert.strictEqual(asked.length, 1);
    policy = 'allow';
    await files.agentWrite(path.join(outside, 'allowed.txt'), 'fine\n', { ...who, sessionId: 's3' });
    assert.strictEqual(fs.readFileSync(path.join(outside, 'allowed.txt'), 'utf8'), 'fine\n');
    assert.strictEqual(asked.length, 1);
  });

  test('writing what configures VS Code or git needs consent like a write outside; reading it does not', async () => {
    const settings = inWs('.vscode', 'settings.json');
    await assert.rejects(files.agentWrite(settings, '{"acpChat.permissionRules":[{"action":"allow"}]}', who), /did not allow writing .*configures VS Code, git or this extension/);
    await assert.rejects(files.agentWrite(inWs('.git', 'hooks', 'pre-commit'), '#!/bin/sh\n', who), /did not allow writing/);
    await assert.rejects(files.agentWrite(inWs('team.code-workspace'), '{}', who), /did not allow writing/);
    assert.strictEqual(asked.length, 3);
    assert.match(asked[0]!.message, /wants to write a file \(settings\.json: a file that configures VS Code, git or this extension\)/);
    assert.strictEqual(fs.existsSync(settings), false);
    answer = 'Allow Once';
    await files.agentWrite(settings, '{}\n', who);
    assert.strictEqual(fs.readFileSync(settings, 'utf8'), '{}\n');
    assert.strictEqual(await files.agentRead({ path: settings }, who), '{}\n');
    assert.strictEqual(asked.length, 4, 'reading it did not ask');
  });

  test('a hard link to a file outside is outside; directories, FIFOs and text that is not UTF-8 are refused', async () => {
    fs.linkSync(path.join(outside, 'secret.txt'), inWs('hardlink.txt'));
    await assert.rejects(files.agentRead({ path: inWs('hardlink.txt') }, who), /did not allow reading .*hard link/);
    await assert.rejects(files.agentWrite(inWs('hardlink.txt'), 'pwned', who), /did not allow writing/);
    assert.strictEqual(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'SECRET\n');
    await assert.rejects(files.agentWrite(`${inWs('inside.txt')}/`, 'x', who), /names a directory/);
    await assert.rejects(files.agentWrite(inWs(), 'x', who), /is a directory/);
    execFileSync('mkfifo', [inWs('fifo')]);
    await assert.rejects(files.agentRead({ path: inWs('fifo') }, who), /not a regular file/);
    await assert.rejects(files.agentWrite(inWs('fifo'), 'x', who), /not a regular file/);
    fs.writeFileSync(inWs('latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    await assert.rejects(files.agentRead({ path: inWs('latin1.txt') }, who), /not UTF-8/);
    assert.strictEqual(await files.agentRead({ path: inWs('inside.txt'), line: 1, limit: 1 }, who), 'inside\n');
  });

  test('a folder flipped to a symlink out while the user is asked: the write never lands outside', async () => {
    // New and existing targets, under a config folder (asked about) and outside through a granted folder.
    fs.mkdirSync(inWs('flip', '.vscode'), { recursive: true });
    fs.writeFileSync(inWs('flip', '.vscode', 'settings.json'), '{}\n');
    fs.mkdirSync(path.join(outside, 'flipped', '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'flipped', '.vscode', 'settings.json'), 'OUTSIDE\n');
    answer = 'Allow Once';
    for (const name of ['settings.json', 'tasks.json']) {
      duringDialog = () => {
        fs.renameSync(inWs('flip'), inWs('flip-saved'));
        fs.symlinkSync(path.join(outside, 'flipped'), inWs('flip'));
      };
      await assert.rejects(files.agentWrite(inWs('flip', '.vscode', name), 'pwned\n', who), /changed while it was being opened/, name);
      fs.unlinkSync(inWs('flip'));
      fs.renameSync(inWs('flip-saved'), inWs('flip'));
    }
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(fs.readFileSync(path.join(outside, 'flipped', '.vscode', 'settings.json'), 'utf8'), 'OUTSIDE\n');
    assert.strictEqual(fs.existsSync(path.join(outside, 'flipped', '.vscode', 'tasks.json')), false);
    assert.strictEqual(fs.readFileSync(inWs('flip', '.vscode', 'settings.json'), 'utf8'), '{}\n');
  });

  test('acpChat.outsideWorkspace "allow" still asks before a config write; a hard link is written by its workspace name only', async () => {
    policy = 'allow';
    const s = { ...who, sessionId: 'allow-all' };
    await assert.rejects(files.agentWrite(inWs('.vscode', 'tasks.json'), '{}', s), /did not allow writing .*configures VS Code, git or this extension/);
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(fs.existsSync(inWs('.vscode', 'tasks.json')), false);
    fs.writeFileSync(path.join(outside, 'linked.txt'), 'OUTSIDE\n');
    fs.linkSync(path.join(outside, 'linked.txt'), inWs('linked.txt'));
    await files.agentWrite(inWs('linked.txt'), 'mine\n', s);
    assert.strictEqual(fs.readFileSync(inWs('linked.txt'), 'utf8'), 'mine\n');
    assert.strictEqual(fs.readFileSync(path.join(outside, 'linked.txt'), 'utf8'), 'OUTSIDE\n', 'the other name is not written through');
    assert.strictEqual(asked.length, 1);
    policy = 'deny';
    await assert.rejects(files.agentWrite(inWs('.vscode', 'tasks.json'), '{}', s), /"deny"/);
    assert.strictEqual(asked.length, 1);
  });

  test('"Allow for This Session" is the grant of one chat\'s session: another chat naming the same session id is asked', async () => {
    answer = 'Allow for This Session';
    const mine = { ...who, sessionId: 'shared-id', scope: 'chat-a' };
    assert.strictEqual(await files.agentRead({ path: path.join(outside, 'secret.txt') }, mine), 'SECRET\n');
    answer = undefined;
    await assert.rejects(files.agentRead({ path: path.join(outside, 'secret.txt') }, { ...mine, scope: 'chat-b' }), /did not allow/);
    assert.strictEqual(asked.length, 2);
  });
});
