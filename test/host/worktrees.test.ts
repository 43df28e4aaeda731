/**
 * Worktree chats in the real extension host, on real git repositories: a folder of the workspace is a git
 * repository; two demo-agent chats each get a worktree of their own, edit the same file at once (one through
 * fs/write_text_file, one on disk itself), and neither touches the other's nor the user's files; Apply puts
 * one chat's change in the checkout; the confined boundary refuses the checkout and the other worktree even
 * under `allow` (the hostile cases: absolute paths, `..`, a symlink out, the worktree's `.git` file); a
 * worktree removed from outside is said, not recreated; Ask Several Agents compares three runs and keeps one;
 * Edit & Rerun of a worktree chat offers a new worktree (first) and starts it from that chat's worktree.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { FileAccess } from '../../src/vscode/workspace/fsHandlers';
import { RewindCommands } from '../../src/common/rewind/rewindCommands';
import type { WorktreeInfo } from '../../src/common/worktrees/worktreeInfo';
import { api } from './util';
import { until } from '../helpers/until.mjs';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

suite('Worktree chats', () => {
  const repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wt-repo-')));
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let added = -1;

  suiteSetup(async () => {
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'demo-edit.txt'), 'shared line\n');
    fs.writeFileSync(path.join(repo, 'README.md'), '# repo\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');
    added = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.ok(vscode.workspace.updateWorkspaceFolders(added, 0, { uri: vscode.Uri.file(repo) }));
    await until(() => vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === repo), 'the repository in the workspace', 20_000);
    await config().update('workingFolder', repo, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await config().update('workingFolder', undefined, vscode.ConfigurationTarget.Global);
    if (added >= 0) vscode.workspace.updateWorkspaceFolders(added, 1);
  });

  async function worktreeChat(): Promise<{ id: string; info: WorktreeInfo }> {
    const a = await api();
    await vscode.commands.executeCommand('acpChat.newChatInWorktree');
    const id = await until(() => a.service.focusedChatId, 'the new chat focused', 20_000);
    const info = a.service.chatIndex.get(id)?.worktree;
    assert.ok(info, 'the chat record holds its worktree');
    return { id, info };
  }

  async function turn(id: string, prompt: string): Promise<void> {
    const a = await api();
    const chat = a.service.chat(id);
    assert.ok(chat);
    await chat.start();
    chat.prompt(prompt);
    if (/edit/.test(prompt)) {
      const request = await until(() => chat.broker.pending()[0], 'a permission request', 30_000);
      const allow = request.options.find((o) => o.kind === 'allow_once');
      assert.ok(allow && chat.broker.respond(request.requestId, allow.optionId));
    }
    await until(() => chat.turnState === 'idle' && chat.entries().some((e) => e.kind === 'agent_message'), 'the turn ended', 30_000);
    await chat.whenIdle();
  }

  test('two chats edit the same file at once, each in its own worktree; the checkout is untouched until Apply', async () => {
    const a = await api();
    const one = await worktreeChat();
    const two = await worktreeChat();
    assert.notStrictEqual(one.info.path, two.info.path);
    assert.notStrictEqual(one.info.branch, two.info.branch);
    assert.ok(!one.info.path.startsWith(repo), 'the worktree is not inside the workspace');
    assert.strictEqual(a.service.chat(one.id)?.cwd, one.info.path, 'the worktree is the agent’s cwd');
    assert.deepStrictEqual(a.service.chat(one.id)?.panelState().worktree, { branch: one.info.branch, path: one.info.path, missing: false });
    await Promise.all([turn(one.id, 'please edit'), turn(two.id, 'change it yourself')]);
    assert.match(fs.readFileSync(path.join(one.info.path, 'demo-edit.txt'), 'utf8'), /Edited by the ACP Chat demo agent/);
    assert.ok(fs.existsSync(path.join(two.info.path, 'demo-self.txt')), 'the second agent wrote in its own worktree');
    const shown = (a.service.chat(two.id)?.panelState().changeSets ?? []).flatMap((set) => set.files.map((f) => f.path));
    assert.ok(shown.includes('demo-self.txt'), `Changes names the file relative to the worktree: ${JSON.stringify(shown)}`);
    assert.strictEqual(fs.readFileSync(path.join(two.info.path, 'demo-edit.txt'), 'utf8'), 'shared line\n', 'not the other chat’s edit');
    assert.strictEqual(fs.readFileSync(path.join(repo, 'demo-edit.txt'), 'utf8'), 'shared line\n', 'the checkout is untouched');
    assert.ok(!fs.existsSync(path.join(repo, 'demo-self.txt')));
    assert.ok(await a.service.worktrees.apply(one.info));
    assert.match(fs.readFileSync(path.join(repo, 'demo-edit.txt'), 'utf8'), /Edited by the ACP Chat demo agent/);
    git(repo, 'checkout', '-q', '--', '.');
  });

  test('the confined boundary refuses the checkout and other worktrees even under "allow" (hostile paths)', async () => {
    const one = await worktreeChat();
    const two = await worktreeChat();
    const log = vscode.window.createOutputChannel('ACP Chat worktree boundary test', { log: true });
    const asked: string[] = [];
    const shared = new FileAccess(
      log,
      undefined,
      () => 'allow',
      async (m) => void asked.push(m),
    );
    const files = shared.confined({ root: one.info.path, fenced: () => [repo, path.dirname(one.info.path)] });
    const who = { agentName: 'hostile', sessionId: 's', scope: one.id };
    fs.symlinkSync(repo, path.join(one.info.path, 'escape'));
    try {
      assert.strictEqual(await files.agentRead({ path: path.join(one.info.path, 'README.md') }, who), '# repo\n');
      await files.agentWrite(path.join(one.info.path, 'mine.txt'), 'ok\n', who);
      const hostile = [
        path.join(repo, 'README.md'),
        path.join(one.info.path, '..', path.basename(two.info.path), 'README.md'),
        path.join(two.info.path, 'README.md'),
        path.join(one.info.path, 'escape', 'README.md'),
      ];
      for (const p of hostile) {
        await assert.rejects(files.agentRead({ path: p }, who), /outside this chat's worktree/, `read ${p}`);
        await assert.rejects(files.agentWrite(p, 'pwned\n', who), /outside this chat's worktree/, `write ${p}`);
      }
      await assert.rejects(files.checkTerminalCwd(repo, who), /outside this chat's worktree/);
      assert.strictEqual(fs.readFileSync(path.join(repo, 'README.md'), 'utf8'), '# repo\n');
      assert.strictEqual(fs.readFileSync(path.join(two.info.path, 'README.md'), 'utf8'), '# repo\n');
      // The worktree's own `.git` (a file naming the repository's git folder) is a config write: asked, never silent.
      await assert.rejects(files.agentWrite(path.join(one.info.path, '.git'), 'gitdir: /tmp/evil\n', who));
      assert.deepStrictEqual(asked.length, 1);
    } finally {
      log.dispose();
    }
  });

  test('a worktree removed from outside is said (header and agent start), not recreated', async () => {
    const a = await api();
    const one = await worktreeChat();
    a.service.closeChat(one.id);
    git(repo, 'worktree', 'remove', '--force', one.info.path);
    await a.service.openChat({ chatId: one.id });
    const chat = await until(() => a.service.chat(one.id), 'the chat live again', 20_000);
    await until(() => chat.panelState().worktree?.missing === true, 'the header says the worktree is gone', 20_000);
    await until(() => /removed outside ACP Chat/.test(chat.panelState().message ?? ''), 'the chat says why its agent did not start', 20_000);
    assert.ok(!fs.existsSync(one.info.path), 'not recreated');
  });

  test('Edit & Rerun of a worktree chat offers a new worktree, made from that chat’s worktree (its work carried), not from HEAD', async () => {
    const a = await api();
    const one = await worktreeChat();
    await turn(one.id, 'change it yourself');
    const source = a.service.chat(one.id);
    assert.ok(source?.sessionId);
    const first = source.entries().find((e) => e.kind === 'user_message');
    assert.ok(first);
    const selfText = fs.readFileSync(path.join(one.info.path, 'demo-self.txt'), 'utf8');
    // Under the default `workspace` setting the branch still asks where it works, worktree first; the undo offer keeps the files.
    const w = vscode.window as unknown as Record<string, unknown>;
    const saved = { pick: w['showQuickPick'], warn: w['showWarningMessage'] };
    const picks: string[][] = [];
    w['showQuickPick'] = (items: readonly { label: string }[]) => {
      picks.push(items.map((i) => i.label));
      return Promise.resolve(items[0]);
    };
    w['showWarningMessage'] = () => Promise.resolve('Branch, Keep Files');
    let branchId: string | undefined;
    try {
      branchId = (await vscode.commands.executeCommand(RewindCommands.branch, {
        chatId: one.id,
        sessionId: source.sessionId,
        key: first.key,
        prompt: { text: 'change it yourself, again', images: [] },
      })) as string | undefined;
    } finally {
      w['showQuickPick'] = saved.pick;
      w['showWarningMessage'] = saved.warn;
    }
    assert.ok(branchId, 'the branch was made');
    assert.match(picks[0]?.[0] ?? '', /In a new worktree/, JSON.stringify(picks));
    const info = a.service.chatIndex.get(branchId)?.worktree;
    assert.ok(info, 'the branch has a worktree of its own');
    assert.notStrictEqual(info.path, one.info.path);
    assert.notStrictEqual(info.branch, one.info.branch);
    assert.strictEqual(info.repo, repo, 'Apply still goes to the user’s checkout');
    assert.strictEqual(info.base, one.info.base, 'measured from the same base as its source');
    assert.strictEqual(a.service.chat(branchId)?.cwd, info.path, 'its agent works in the new worktree');
    const branched = a.service.chat(branchId);
    assert.ok(branched);
    await until(() => branched.turnState === 'idle' && branched.entries().some((e) => e.kind === 'agent_message'), 'the branch turn ended', 30_000);
    await branched.whenIdle();
    const carried = fs.readFileSync(path.join(info.path, 'demo-self.txt'), 'utf8');
    assert.ok(carried.startsWith(selfText), 'the source chat’s work came along (not HEAD)');
    assert.strictEqual(fs.readFileSync(path.join(one.info.path, 'demo-self.txt'), 'utf8'), selfText, 'the source’s worktree is untouched by the branch');
    assert.ok(!fs.existsSync(path.join(repo, 'demo-self.txt')), 'the checkout is untouched');
  });

  test('Ask Several Agents: three runs compared, one kept (applied), the others’ worktrees discarded, every chat in history', async () => {
    const a = await api();
    const comparison = a.service.worktrees.comparison;
    assert.ok(comparison);
    const ids = (await vscode.commands.executeCommand('acpChat.askSeveralAgents', { agentIds: ['demo', 'demo', 'demo'], prompt: 'change it yourself', carry: false })) as string[];
    assert.strictEqual(ids.length, 3);
    await until(() => comparison.rows().every((r) => r.state === 'done'), 'every run done', 60_000);
    await comparison.whenEnded();
    const rows = comparison.rows();
    assert.ok(
      rows.every((r) => r.files.some((f) => f.path === 'demo-self.txt')),
      JSON.stringify(rows.map((r) => r.files)),
    );
    assert.ok(rows.every((r) => r.answer.length > 0));
    const infos = ids.map((id) => {
      const w = a.service.chatIndex.get(id)?.worktree;
      assert.ok(w, `chat ${id} has a worktree`);
      return w;
    });
    assert.ok(await comparison.keep(ids[0]!, true));
    assert.ok(fs.existsSync(path.join(repo, 'demo-self.txt')), 'the kept run is applied');
    assert.ok(!fs.existsSync(infos[1]!.path) && !fs.existsSync(infos[2]!.path), 'the others’ worktrees are gone');
    assert.ok(
      ids.every((id) => a.service.chatIndex.get(id)),
      'every chat stays in history',
    );
    fs.rmSync(path.join(repo, 'demo-self.txt'));
  });
});
