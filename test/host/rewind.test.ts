/**
 * Rewind through the real VS Code APIs: a branch at an earlier user message undoes the Changes of the
 * turns after it (one workspace edit, after a modal that lists the files), opens a new chat that records
 * its origin and whose first prompt carries the earlier transcript, and leaves the original chat as it
 * was; a file changed since the agent's edit is refused by name and left alone. An agent that forks at a
 * message (the demo with ACP_DEMO_FORK_AT_MESSAGE=on, protocol v2 so user messages have ids) is asked
 * for `session/fork` at the edited message instead, and nothing is carried.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import * as fs from 'fs';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { AcpChatApi } from '../../src/vscode/extension';
import { RewindCommands } from '../../src/common/rewind/rewindCommands';
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
    const request = await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
  }
  await done;
  const source = a.service.activeSession();
  await until(() => source.panelState().changeSets.length > 0 || !/edit/.test(prompt), "the turn's Changes summary", 10_000);
}

async function freshChat(a: AcpChatApi) {
  await a.service.newChat();
  await a.whenPanelReady();
  const chat = a.service.activeSession();
  await chat.start();
  return chat;
}

const demoScript = () => path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');

/** A chat of a demo agent run with `env`, on protocol `version`; the settings come back afterwards. */
async function withDemo(a: AcpChatApi, id: string, env: Record<string, string>, version: 1 | 2, run: () => Promise<void>): Promise<void> {
  const config = vscode.workspace.getConfiguration('acpChat');
  const agents = config.inspect('agents')?.globalValue;
  const protocol = config.inspect('protocolVersion')?.globalValue;
  await config.update(
    'agents',
    [{ id, name: `Demo (${id})`, command: process.execPath, args: [demoScript()], env: { ELECTRON_RUN_AS_NODE: '1', ...env } }],
    vscode.ConfigurationTarget.Global,
  );
  await config.update('protocolVersion', version, vscode.ConfigurationTarget.Global);
  try {
    await run();
  } finally {
    await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    await config.update('protocolVersion', protocol, vscode.ConfigurationTarget.Global);
  }
}

/** The requests of `method` in a chat's capture file (one JSON record a line). */
function captured(file: string | undefined, method: string): { params?: Record<string, unknown> }[] {
  if (!file || !fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const r = JSON.parse(line) as { dir?: string; msg?: { method?: string; params?: Record<string, unknown> } };
        return r.dir === 'client->agent' && r.msg?.method === method ? [r.msg] : [];
      } catch {
        return [];
      }
    });
}

suite('Rewind: edit an earlier message, code goes back too', () => {
  test("branching at an earlier message undoes the later turns' edits and opens a new chat carrying the transcript", async function () {
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
      branchId = await vscode.commands.executeCommand(RewindCommands.branch, {
        chatId: sourceId,
        sessionId,
        key: second.key,
        prompt: { text: 'tell me more instead', images: [] },
      });
    });
    assert.strictEqual(shown.length, 1, 'one question before the branch runs');
    // In a multi-root workspace (the runner opens one) VS Code names a file with its folder: `ws/demo-edit.txt`.
    assert.match(shown[0] ?? '', /Files put back: (ws\/)?demo-edit\.txt/);
    assert.strictEqual(await onDisk(target), 'base\n', 'the file went back to before the edited message');
    assert.ok(typeof branchId === 'string' && branchId !== sourceId, 'a new chat');
    assert.deepStrictEqual(a.service.originOf(branchId), { kind: 'forked', chatId: sourceId, sessionId, messageKey: second.key });

    const branch = a.service.chat(branchId);
    assert.ok(branch);
    const first = await until(() => branch.entries().find((e) => e.kind === 'user_message'), "the branch's first prompt", 30_000);
    assert.ok(first.kind === 'user_message');
    const carried = first.content.filter(isCarriedBlock);
    assert.strictEqual(carried.length, 2, 'the lead line and the transcript are shown with the prompt');
    const transcript = carried.find((b) => b.type === 'resource');
    assert.ok(transcript?.type === 'resource' && 'text' in transcript.resource);
    assert.match(String(transcript.resource.text), /a first question/);
    assert.doesNotMatch(String(transcript.resource.text), /please edit the file/);
    const own = first.content[0];
    assert.ok(own?.type === 'text' && own.text === 'tell me more instead', 'the user’s words come first (agents read them first and title the chat by them)');
    // Tool calls are named in the transcript, never replayed: the branch's session starts at its first prompt.
    assert.match(String(transcript.resource.text), /Tool call \(not replayed\)/);
    assert.strictEqual(branch.entries()[0]?.key, first.key, 'nothing of the earlier turns is replayed into the new session');
    await branch.whenIdle();
    assert.strictEqual(source.entries().length, entriesBefore, 'the original chat is unchanged');
  });

  test("a file changed since the agent's edit is named and left alone; declining keeps the files", async () => {
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
    assert.match(shown[0] ?? '', /Left as they are: (ws\/)?demo-edit\.txt \(it changed after .*'s edit\)/);
    assert.match(shown[0] ?? '', /No file can be put back/);
    assert.strictEqual(await onDisk(target), mine, "the user's text is not overwritten");
  });

  test("an agent that forks at a message: session/fork at the edited message, the later turns' edits undone, nothing carried", async function () {
    this.timeout(180_000);
    const a = await api();
    await withDemo(a, 'demo-fork-at', { ACP_DEMO_FORK_AT_MESSAGE: 'on' }, 2, async () => {
      const target = workspaceFile('demo-edit.txt');
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('base\n'));
      const panel = await a.service.newChat('demo-fork-at');
      await panel.whenReady();
      const source = a.service.activeSession();
      assert.strictEqual(source.agent.id, 'demo-fork-at');
      await source.start();
      const sourceId = a.service.chatIdOf(source);
      await turn(a, 'a first question');
      await turn(a, 'please edit the file');
      const sessionId = source.sessionId;
      const second = source.entries().filter((e) => e.kind === 'user_message')[1];
      assert.ok(second?.kind === 'user_message' && sessionId !== null && sourceId !== undefined);
      assert.ok(second.messageId, 'the agent named the message (v2)');

      let branchId: unknown;
      const shown = await withDialogs('Undo Changes and Branch', async () => {
        branchId = await vscode.commands.executeCommand(RewindCommands.branch, {
          chatId: sourceId,
          sessionId,
          key: second.key,
          prompt: { text: 'tell me more instead', images: [] },
        });
      });
      assert.match(shown[0] ?? '', /Files put back: (ws\/)?demo-edit\.txt/);
      assert.strictEqual(await onDisk(target), 'base\n', 'the file went back');
      assert.ok(typeof branchId === 'string');
      const forks = await until(
        () => {
          const f = captured(source.captureFile(), 'session/fork');
          return f.length ? f : undefined;
        },
        'the session/fork request in the capture',
        10_000,
      );
      assert.strictEqual(forks.length, 1);
      assert.strictEqual(forks[0]?.params?.['sessionId'], sessionId);
      assert.strictEqual(forks[0]?.params?.['messageId'], second.messageId, 'forked at the edited message');
      const branch = a.service.chat(branchId);
      assert.ok(branch);
      await until(() => branch.entries().filter((e) => e.kind === 'user_message').length === 2 && branch.turnState === 'idle', "the branch's turn", 60_000);
      const texts = branch.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')] : []));
      assert.deepStrictEqual(texts, ['a first question', 'tell me more instead'], 'the fork holds what came before the message, then the edit');
      assert.ok(
        branch.entries().every((e) => e.kind !== 'user_message' || !e.content.some(isCarriedBlock)),
        'nothing carried: the agent kept its own context',
      );
      assert.deepStrictEqual(a.service.originOf(branchId), { kind: 'forked', chatId: sourceId, sessionId, messageKey: second.key });
      await a.service.deleteChat(branchId);
      await a.service.deleteChat(sourceId);
    });
  });

  test('Retry after a cancel sends the last prompt again in the same session; Regenerate branches at it', async function () {
    this.timeout(120_000);
    const a = await api();
    const source = await freshChat(a);
    const sourceId = a.service.chatIdOf(source);
    const done = a.sendPrompt('please edit the file');
    await until(() => a.pendingPermissions()[0], 'a permission request', 30_000);
    source.cancel();
    await done;
    await until(() => source.panelState().lastTurnEnd === 'cancelled', 'the turn marked cancelled', 10_000);
    const sessionId = source.sessionId;
    await vscode.commands.executeCommand(RewindCommands.retry, sourceId);
    const request = await until(() => a.pendingPermissions()[0], "the retried turn's permission request", 30_000);
    assert.strictEqual(source.sessionId, sessionId, 'the same session');
    const users = () => source.entries().flatMap((e) => (e.kind === 'user_message' ? [e] : []));
    assert.strictEqual(users().length, 2);
    assert.deepStrictEqual(users()[1]?.content, users()[0]?.content, 'the same prompt');
    const reject = request.options.find((o) => o.kind.startsWith('reject'));
    assert.ok(reject && a.respondPermission(request.requestId, reject.optionId));
    await source.whenIdle();
    assert.strictEqual(source.panelState().lastTurnEnd, null);

    let before = 0;
    const regenerated = await withDialogs('Branch, Keep Files', async () => {
      before = a.service.chatRecords().length;
      await vscode.commands.executeCommand(RewindCommands.regenerate, sourceId);
    });
    assert.ok(regenerated.length <= 1);
    const record = await until(
      () =>
        a.service.chatRecords().length > before &&
        a.service.chatRecords().find((r) => a.service.originOf(r.id)?.kind === 'forked' && (a.service.originOf(r.id) as { chatId?: string }).chatId === sourceId),
      'the regenerated branch',
      30_000,
    );
    const branch = a.service.chat(record.id);
    assert.ok(branch);
    const first = await until(() => branch.entries().find((e) => e.kind === 'user_message'), "the branch's prompt", 30_000);
    assert.ok(first.kind === 'user_message' && first.content.some((b) => b.type === 'text' && b.text === 'please edit the file'), 'the last prompt, as it was');
    assert.strictEqual(users().length, 2, 'the original chat is unchanged');
    // The regenerated turn asks to edit again: declined, so nothing is left waiting.
    const asked = await until(() => branch.broker.pending()[0], "the branch's permission request", 30_000);
    branch.broker.respond(asked.requestId, null);
    await branch.whenIdle();
    await a.service.deleteChat(record.id);
  });
});

suite('Restore in place: the same chat goes back to a message', () => {
  const userTexts = (entries: readonly { kind: string; content?: unknown }[]) =>
    entries.flatMap((e) => (e.kind === 'user_message' ? [(e.content as { type: string; text?: string }[]).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')] : []));

  test('files go back, the later turns are folded in the same tab, and the next prompt goes to a new session carrying the transcript', async function () {
    this.timeout(180_000);
    const a = await api();
    const target = workspaceFile('demo-edit.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('base\n'));
    const chat = await freshChat(a);
    const chatId = a.service.chatIdOf(chat);
    await turn(a, 'a first question');
    await turn(a, 'please edit the file');
    const old = chat.sessionId;
    const second = chat.entries().filter((e) => e.kind === 'user_message')[1];
    assert.ok(second && old !== null && chatId !== undefined);
    let restored: unknown;
    const shown = await withDialogs('Undo Changes and Restore', async () => {
      restored = await vscode.commands.executeCommand(RewindCommands.restoreInPlace, { chatId, sessionId: old, key: second.key });
    });
    assert.strictEqual(restored, true);
    assert.match(shown[0] ?? '', /restore the chat to it\? Files put back: (ws\/)?demo-edit\.txt/);
    assert.strictEqual(await onDisk(target), 'base\n', 'the file went back to before the message');
    assert.strictEqual(a.service.activeSession(), chat, 'the same chat, in the same tab');
    assert.ok(chat.sessionId !== null && chat.sessionId !== old, 'a new session goes on');
    const folds = chat.panelState().folds ?? [];
    assert.strictEqual(folds.length, 1, 'the panel hears one fold');
    const keys = chat.entries().map((e) => e.key);
    const folded = chat.entries().slice(keys.indexOf(folds[0]!.first), keys.indexOf(folds[0]!.last) + 1);
    assert.deepStrictEqual(userTexts(folded), ['please edit the file'], 'the turn from the message on is folded, kept');
    assert.deepStrictEqual(userTexts(chat.entries()), ['a first question', 'please edit the file']);
    const chip = chat.panelState().context.find((c) => /Earlier conversation/.test(c.label));
    assert.ok(chip, 'the transcript before the message waits as a context chip');

    await a.sendPrompt('go on from here');
    const prompts = captured(chat.captureFile(), 'session/prompt');
    const last = prompts.at(-1)?.params;
    assert.strictEqual(last?.['sessionId'], chat.sessionId, 'the next prompt goes to the new session');
    assert.match(JSON.stringify(last?.['prompt']), /a first question/, 'carrying the earlier transcript');
    assert.doesNotMatch(JSON.stringify(last?.['prompt']), /please edit the file/);
    assert.deepStrictEqual(userTexts(chat.entries()), ['a first question', 'please edit the file', 'go on from here']);
    await a.service.deleteChat(chatId);
  });

  test('an agent that forks at a message: the chat goes on in its fork, nothing carried', async function () {
    this.timeout(180_000);
    const a = await api();
    await withDemo(a, 'demo-fork-restore', { ACP_DEMO_FORK_AT_MESSAGE: 'on' }, 2, async () => {
      const panel = await a.service.newChat('demo-fork-restore');
      await panel.whenReady();
      const chat = a.service.activeSession();
      await chat.start();
      const chatId = a.service.chatIdOf(chat);
      await turn(a, 'a first question');
      await turn(a, 'a second question');
      const old = chat.sessionId;
      const second = chat.entries().filter((e) => e.kind === 'user_message')[1];
      assert.ok(second?.kind === 'user_message' && second.messageId && old !== null && chatId !== undefined);
      const restored = await vscode.commands.executeCommand(RewindCommands.restoreInPlace, { chatId, sessionId: old, key: second.key });
      assert.strictEqual(restored, true);
      const forks = captured(chat.captureFile(), 'session/fork');
      assert.strictEqual(forks.at(-1)?.params?.['messageId'], second.messageId, 'forked at the message');
      assert.ok(chat.sessionId !== old);
      assert.strictEqual(chat.panelState().folds?.length, 1);
      assert.ok(!chat.panelState().context.some((c) => /Earlier conversation/.test(c.label)), 'nothing carried');
      await a.sendPrompt('instead, this');
      assert.strictEqual(captured(chat.captureFile(), 'session/prompt').at(-1)?.params?.['sessionId'], chat.sessionId, 'the next prompt goes to the fork');
      assert.deepStrictEqual(userTexts(chat.entries()), ['a first question', 'a second question', 'instead, this']);
      await a.service.deleteChat(chatId);
    });
  });
});
