/**
 * "Ask Several Agents…": one prompt (with the focused chat's context chips) to 2–6 agents, each in a new
 * chat in a worktree of its own, started together; and the compare view, a plain tree (the ACP side bar's
 * "Agent Comparison"): per agent its state, elapsed time, tokens and cost where reported, the files changed
 * with line counts (a file opens its diff against the base), its final answer, a diff against another
 * agent or the base, and Keep This One (Apply it, discard the others' worktrees in one step; every chat
 * stays in history).
 */
import * as vscode from 'vscode';
import { textOf } from '../../common/store/content';
import { labelText, noticeText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { runSummary, type AgentRun, type RunState } from '../../common/worktrees/compareRows';
import type { FileStat } from '../../common/worktrees/gitText';
import { probeRepo } from '../../node/git/repoProbe';
import { hostGit } from '../../node/git/gitRun';
import { diffTrees, worktreeFiles, worktreeTree } from '../../node/git/worktrees';
import type { ChatController } from '../../node/chat/chatController';
import type { ChatService } from '../chats/chatService';
import { chatCwd } from '../workspace/workspaceFolders';
import { fileLines, lossText } from '../../common/worktrees/worktreeText';

const COMPARE_VIEW = 'acpChat.compare';

interface Run {
  readonly chatId: string;
  readonly agentName: string;
  readonly startedAt: number;
  endedAt: number | null;
  files: readonly FileStat[];
  sawBusy: boolean;
}

type Node = { kind: 'run'; run: Run } | { kind: 'answer'; run: Run } | { kind: 'file'; run: Run; file: FileStat };

function stateOf(chat: ChatController | undefined, r: Run): RunState {
  const t = chat?.turnState;
  if (t === 'error' || t === 'exited') return 'failed';
  if (t === 'busy' || t === 'cancelling') return 'working';
  if (t === 'idle' && r.sawBusy) return chat?.panelState().lastTurnEnd === 'cancelled' ? 'cancelled' : 'done';
  return 'starting';
}

/** The agent's last message of the chat's session. */
function answerOf(chat: ChatController | undefined): string {
  const last = [...(chat?.entries() ?? [])].reverse().find((e) => e.kind === 'agent_message');
  return last && last.kind === 'agent_message' ? textOf(last.content) : '';
}

export class AgentComparison implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private runs: Run[] = [];
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly s: ChatService) {}

  /** The runs as the shared rows see them (also what the host tests read). */
  rows(): AgentRun[] {
    return this.runs.map((r) => {
      const chat = this.s.chat(r.chatId);
      return {
        label: r.agentName,
        state: stateOf(chat, r),
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        files: r.files,
        answer: answerOf(chat),
        usage: chat?.current()?.usage ?? null,
      };
    });
  }

  chatIds = (): string[] => this.runs.map((r) => r.chatId);

  /** Watches a new set of runs (the previous comparison's chats stay in history, out of the view). */
  watch(chats: readonly { chatId: string; agentName: string }[]): void {
    this.stop();
    const now = Date.now();
    this.runs = chats.map((c) => ({ ...c, startedAt: now, endedAt: null, files: [], sawBusy: false }));
    for (const run of this.runs) {
      const chat = this.s.chat(run.chatId);
      if (!chat) continue;
      const sub = chat.onDidChange(() => this.follow(run));
      this.subs.push({ dispose: () => sub.dispose() });
    }
    // Elapsed time moves while any run works.
    this.ticker = setInterval(() => this.runs.some((r) => r.endedAt === null) && this.changed.fire(undefined), 1000);
    this.changed.fire(undefined);
  }

  private follow(run: Run): void {
    const chat = this.s.chat(run.chatId);
    const t = chat?.turnState;
    if (t === 'busy') run.sawBusy = true;
    const ended = (run.sawBusy && t === 'idle') || t === 'error' || t === 'exited';
    if (ended && run.endedAt === null) {
      run.endedAt = Date.now();
      void this.refreshFiles(run);
    }
    this.changed.fire(undefined);
  }

  async refreshFiles(run: Run): Promise<void> {
    const info = this.s.worktrees.info(run.chatId);
    if (!info) return;
    run.files = await worktreeFiles(hostGit, info).catch(() => run.files);
    this.changed.fire(undefined);
  }

  /** Resolves when every run has ended (for tests and the command's progress). */
  async whenEnded(): Promise<void> {
    await Promise.all(this.runs.map((r) => this.s.chat(r.chatId)?.whenIdle()));
    await Promise.all(this.runs.map((r) => this.refreshFiles(r)));
  }

  getTreeItem(n: Node): vscode.TreeItem {
    const rows = this.rows();
    const i = this.runs.indexOf(n.run);
    const row = rows[i]!;
    if (n.kind === 'run') {
      const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = runSummary(row, Date.now());
      item.tooltip = row.answer || 'No answer yet';
      item.contextValue = 'compareRun';
      item.id = `run-${n.run.chatId}`;
      item.iconPath = new vscode.ThemeIcon(row.state === 'working' || row.state === 'starting' ? 'loading~spin' : row.state === 'done' ? 'pass' : 'error');
      return item;
    }
    if (n.kind === 'answer') {
      const item = new vscode.TreeItem('Final answer', vscode.TreeItemCollapsibleState.None);
      item.description = row.answer.split('\n')[0] ?? '';
      item.command = { command: 'acpChat.compareOpenAnswer', title: 'Open answer', arguments: [n.run.chatId] };
      return item;
    }
    const line = fileLines([n.file])[0]!;
    const item = new vscode.TreeItem(line.label, vscode.TreeItemCollapsibleState.None);
    item.description = line.counts;
    item.command = { command: 'acpChat.compareOpenFile', title: 'Open diff', arguments: [n.run.chatId, n.file.path] };
    return item;
  }

  getChildren(n?: Node): Node[] {
    if (!n) return this.runs.map((run) => ({ kind: 'run', run }));
    if (n.kind !== 'run') return [];
    return [{ kind: 'answer', run: n.run }, ...n.run.files.map((file) => ({ kind: 'file' as const, run: n.run, file }))];
  }

  /** The diff of one run against another run or its base, as a diff document. */
  async diffAgainst(chatId: string): Promise<void> {
    const info = this.s.worktrees.info(chatId);
    if (!info) return;
    const others = this.runs.filter((r) => r.chatId !== chatId);
    const pick = await vscode.window.showQuickPick([{ label: 'The base', chatId: undefined }, ...others.map((r) => ({ label: labelText(r.agentName), chatId: r.chatId }))], {
      title: 'Diff against…',
    });
    if (!pick) return;
    const other = pick.chatId !== undefined ? this.s.worktrees.info(pick.chatId) : undefined;
    const a = other ? await worktreeTree(hostGit, other) : info.base;
    const text = await diffTrees(hostGit, info.repo, a, await worktreeTree(hostGit, info));
    const doc = await vscode.workspace.openTextDocument({ language: 'diff', content: text || '(no difference)' });
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /** Keep one: Apply its change to the workspace, then discard every other run's worktree (one confirmation). */
  async keep(chatId: string, confirmed = false): Promise<boolean> {
    const info = this.s.worktrees.info(chatId);
    if (!info) return false;
    const others = this.runs.filter((r) => r.chatId !== chatId && this.s.worktrees.info(r.chatId));
    const detail = others.map((r) => `${r.agentName}: ${lossText(this.s.worktrees.info(r.chatId)!, { files: r.files, commits: 0 })}`).join('\n\n');
    const ok = confirmed
      ? 'Keep This One'
      : await vscode.window.showWarningMessage(
          noticeText(`Apply this agent's change to your workspace and discard the other ${others.length} worktree${others.length === 1 ? '' : 's'}?`),
          { modal: true, detail: noticeText(detail) },
          'Keep This One',
        );
    if (ok !== 'Keep This One') return false;
    if (!(await this.s.worktrees.apply(info))) return false;
    for (const r of others)
      await this.s.worktrees.discard(r.chatId, this.s.worktrees.info(r.chatId)!, false).catch((e) => this.s.log.warn(`discarding ${r.chatId}: ${errorText(e)}`));
    return true;
  }

  private stop(): void {
    this.subs.splice(0).forEach((d) => d.dispose());
    if (this.ticker) clearInterval(this.ticker);
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
  }
}

/** ACP: Ask Several Agents… — pick 2–6 agents and a prompt; each gets a new worktree chat; the compare view follows them. */
export async function askSeveralAgents(s: ChatService, comparison: AgentComparison, given?: { agentIds: readonly string[]; prompt: string; carry?: boolean }): Promise<string[]> {
  await s.ready();
  const from = chatCwd(s.settings.workingFolder);
  const probe = from !== undefined ? await probeRepo(hostGit, from) : undefined;
  if (!probe || probe.kind !== 'repo')
    return (void vscode.window.showWarningMessage(`Ask Several Agents needs a workspace in a git repository: ${noticeText(probe?.message ?? 'no workspace folder')}`), []);
  let agentIds = given?.agentIds;
  if (!agentIds) {
    const picked = await vscode.window.showQuickPick(
      s.agents().map((a) => ({ label: labelText(a.name), description: labelText(a.id), id: a.id })),
      { canPickMany: true, title: 'Ask several agents: choose 2 to 6' },
    );
    agentIds = picked?.map((p) => p.id);
  }
  if (!agentIds) return [];
  if (agentIds.length < 2 || agentIds.length > 6) return (void vscode.window.showWarningMessage('Choose between 2 and 6 agents.'), []);
  const prompt = given?.prompt ?? (await vscode.window.showInputBox({ title: `Ask ${agentIds.length} agents`, prompt: 'One prompt, sent to each agent in its own worktree' }));
  if (!prompt) return [];
  // Asked once for all of them.
  let carry = given?.carry ?? false;
  if (probe.dirty && given?.carry === undefined) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'Start from HEAD', carry: false },
        { label: 'Carry my uncommitted changes over', carry: true },
      ],
      { title: 'Your checkout has uncommitted changes' },
    );
    if (!pick) return [];
    carry = pick.carry;
  }
  const chips = s.focusedChat?.contextItems() ?? [];
  const made: { chatId: string; agentName: string }[] = [];
  for (const agentId of agentIds) {
    const record = s.createChat(agentId);
    await s.worktrees.offer(record.id, true, undefined, carry);
    if (!s.worktrees.info(record.id)) break; // said why (offer shows the error)
    await s.openChat({ chatId: record.id, preserveFocus: true });
    made.push({ chatId: record.id, agentName: s.agents().find((a) => a.id === agentId)?.name ?? agentId });
  }
  // Started together: every chat is made first, then every prompt goes.
  for (const m of made) {
    const chat = s.chat(m.chatId);
    for (const { id: _id, ...item } of chips) chat?.addContext(item);
    chat?.prompt(prompt);
  }
  comparison.watch(made);
  // The view shows only once there is something to compare (an empty view would take side-bar room from the chat).
  await vscode.commands.executeCommand('setContext', 'acpChat.hasComparison', true);
  void vscode.commands.executeCommand(`${COMPARE_VIEW}.focus`);
  return made.map((m) => m.chatId);
}

/** The compare view and its commands (registered once, by ChatCommands). */
export function registerComparison(s: ChatService): { comparison: AgentComparison; disposables: vscode.Disposable[] } {
  const comparison = new AgentComparison(s);
  const chatArg = (n: unknown): string | undefined => (typeof n === 'string' ? n : typeof n === 'object' && n !== null && 'run' in n ? (n as { run: Run }).run.chatId : undefined);
  const disposables = [
    comparison,
    vscode.window.createTreeView(COMPARE_VIEW, { treeDataProvider: comparison, showCollapseAll: false }),
    vscode.commands.registerCommand('acpChat.compareKeep', (n: unknown) => {
      const id = chatArg(n);
      return id !== undefined ? comparison.keep(id) : false;
    }),
    vscode.commands.registerCommand('acpChat.compareDiff', (n: unknown) => {
      const id = chatArg(n);
      return id !== undefined ? comparison.diffAgainst(id) : undefined;
    }),
    vscode.commands.registerCommand('acpChat.compareOpenChat', (n: unknown) => {
      const id = chatArg(n);
      return id !== undefined ? s.openChat({ chatId: id }) : undefined;
    }),
    vscode.commands.registerCommand('acpChat.compareOpenAnswer', async (chatId: unknown) => {
      if (typeof chatId !== 'string') return;
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: answerOf(s.chat(chatId)) || '(no answer yet)' });
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    vscode.commands.registerCommand('acpChat.compareOpenFile', async (chatId: unknown, file: unknown) => {
      const info = typeof chatId === 'string' ? s.worktrees.info(chatId) : undefined;
      if (info && typeof file === 'string') await s.worktrees.openFileDiff(info, file);
    }),
  ];
  return { comparison, disposables };
}

/** The command's optional argument, checked (it may come from a keybinding or another extension). */
export function severalArg(arg: unknown): { agentIds: string[]; prompt: string; carry?: boolean } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const o = arg as Record<string, unknown>;
  if (!Array.isArray(o.agentIds) || !o.agentIds.every((x) => typeof x === 'string') || typeof o.prompt !== 'string') return undefined;
  return { agentIds: o.agentIds as string[], prompt: o.prompt, ...(typeof o.carry === 'boolean' ? { carry: o.carry } : {}) };
}
