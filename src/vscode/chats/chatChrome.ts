/**
 * Small VS Code surfaces around the chats, kept out of ChatService: the status bar item (the focused
 * chat's agent and turn state), the agent picker of "ACP: Select Agent", and reading the settings.
 */
import * as vscode from 'vscode';
import { findAgent, parseSettings, userScopedSettings, type AgentConfig, type Settings } from '../../common/config/settings';
import { ADD_AGENT_ROW, selectAgentRows } from '../../common/agents/agentChoice';
import { labelText, noticeText } from '../../common/untrusted';
import type { TurnState } from '../../common/webview/contract';

const ICON: Record<TurnState, string> = {
  starting: '$(loading~spin)',
  idle: '$(comment-discussion)',
  busy: '$(loading~spin)',
  cancelling: '$(loading~spin)',
  exited: '$(error)',
  error: '$(error)',
};

/** The status bar item: the focused chat's agent and state; a click selects an agent. */
export function createChatStatus(): { item: vscode.StatusBarItem; show(chat: { agent: AgentConfig; turnState: TurnState } | undefined): void } {
  const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  item.command = 'acpChat.selectAgent';
  return {
    item,
    show(chat) {
      if (!chat) return item.hide();
      item.text = `${ICON[chat.turnState]} ${labelText(chat.agent.name, 60)}`;
      item.tooltip = `ACP Chat: ${labelText(chat.agent.name)} (${chat.turnState}) · click to select an agent`;
      item.show();
    },
  };
}

/** The agent picker; `current` is marked. Resolves with the picked agent's id. */
/**
 * ACP: Select Agent's choice: `id` when given, else picked (each agent by name and the program it runs,
 * then Add Agent…, which runs that command instead). Undefined when nothing is to be selected; an id
 * that names no agent is said.
 */
export async function chooseAgent(agents: readonly AgentConfig[], current: string, id?: string): Promise<string | undefined> {
  const rows = selectAgentRows(agents, current).map((r) =>
    r.separator
      ? { label: '', kind: vscode.QuickPickItemKind.Separator, id: '' }
      : { label: labelText(r.label), description: labelText(r.description ?? ''), detail: labelText(r.detail ?? ''), id: r.id },
  );
  const agentId = id ?? (await vscode.window.showQuickPick(rows, { title: 'ACP: Select Agent', placeHolder: 'The agent new chats start with (the acpChat.agents setting)' }))?.id;
  if (agentId === ADD_AGENT_ROW) return void (await vscode.commands.executeCommand('acpChat.addAgent'));
  if (agentId !== undefined && !findAgent(agents, agentId)) {
    void vscode.window.showErrorMessage(`No agent with id '${noticeText(agentId)}' (see the acpChat.agents setting).`);
    return undefined;
  }
  return agentId;
}

/** The `acpChat` settings; problems are logged and the first is shown. */
export function readSettings(log: vscode.LogOutputChannel): Settings {
  const config = vscode.workspace.getConfiguration('acpChat');
  const ignored: string[] = [];
  const raw = userScopedSettings(
    (key) => config.get(key),
    (key) => config.inspect(key),
    (key) => ignored.push(`acpChat.${key} in this workspace's settings is ignored: it can only be set in your user settings`),
  );
  const { settings, problems: invalid } = parseSettings(raw);
  const problems = [...ignored, ...invalid];
  for (const p of problems) log.warn(`settings: ${p}`);
  // Settings can come from a workspace's .vscode/settings.json, so their text is not trusted either.
  const more = problems.length > 1 ? ` (+${problems.length - 1} more, see the ACP Chat log)` : '';
  if (problems.length) void vscode.window.showWarningMessage(`ACP Chat: ${noticeText(problems[0] ?? '')}${more}`);
  return settings;
}
