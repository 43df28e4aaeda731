/**
 * The MCP servers the user sees and chooses: VS Code's own user-level `mcp.json` (only after the user
 * agreed once, `acpChat.useVSCodeMcpServers`; a workspace's `.vscode/mcp.json` is never read), and
 * "ACP: Choose MCP Servers for This Chat", whose choice the chat's record keeps (`mcpOff`) and the chat's
 * next session/new, load or resume uses. Changing it while a session runs restarts the agent and resumes
 * (or loads) the conversation where the agent supports that; otherwise the change waits for a new session.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Settings } from '../../common/config/settings';
import { configuredMcpServers, mcpOffAfterPick, mcpPickRows } from '../../common/mcp/mcpServers';
import { parseVSCodeMcpJson } from '../../common/mcp/vscodeMcpJson';
import type { McpServer } from '../../common/protocol/requests';
import { labelText } from '../../common/untrusted';
import type { ChatController } from '../../node/chat/chatController';
import type { ChatMcp } from '../../node/chat/sessionParams';
import { applyMcpChoice } from '../../node/chat/mcpApply';

export const chooseMcpServersCommand = 'acpChat.chooseMcpServers';

/** The command's optional argument: `{ chatId?, enabled?: string[] }` (anything else is ignored). */
export function mcpChoiceArg(arg: unknown): { chatId?: string; enabled?: readonly string[] } {
  if (typeof arg === 'string') return { chatId: arg };
  if (typeof arg !== 'object' || arg === null) return {};
  const a = arg as { chatId?: unknown; enabled?: unknown };
  const enabled = Array.isArray(a.enabled) && a.enabled.every((x) => typeof x === 'string') ? (a.enabled as string[]) : undefined;
  return { ...(typeof a.chatId === 'string' ? { chatId: a.chatId } : {}), ...(enabled ? { enabled } : {}) };
}

/** `<user data>/User/mcp.json`, from the extension's global storage (`<user data>/User/globalStorage/<id>`). */
function userMcpJsonPath(globalStorage: string): string | undefined {
  const storage = path.dirname(globalStorage);
  return path.basename(storage) === 'globalStorage' ? path.join(path.dirname(storage), 'mcp.json') : undefined;
}

/** The servers of the user's mcp.json, or none (no file, not agreed to, unreadable: logged). Read at each call, so an edit reaches the next session. */
function readUserMcp(file: string | undefined, warn: (m: string) => void): McpServer[] {
  if (file === undefined || !fs.existsSync(file)) return [];
  try {
    return parseVSCodeMcpJson(fs.readFileSync(file, 'utf8'), warn);
  } catch (e) {
    warn(`VS Code's mcp.json could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

export interface McpChoiceDeps {
  globalStorage(): string;
  settings(): Settings;
  log(level: 'info' | 'warn', message: string): void;
  /** The chat's off-list, owned by its record in the chat index. */
  offOf(chatId: string): readonly string[];
  setOff(chatId: string, off: readonly string[]): void;
}

export class McpChoice {
  private asked = false;
  constructor(private readonly d: McpChoiceDeps) {}

  /** The user's mcp.json this window reads (when agreed to), or undefined when the user folder is unknown. */
  userFile(): string | undefined {
    return userMcpJsonPath(this.d.globalStorage());
  }

  /** VS Code's servers when the user agreed; while undecided, asks once (not awaited: the session does not wait for it). */
  vscodeServers(): McpServer[] {
    const file = this.userFile();
    const use = this.d.settings().useVSCodeMcpServers;
    if (use === 'no') return [];
    const servers = readUserMcp(file, (m) => this.d.log('warn', m));
    if (use === 'yes') return servers;
    if (servers.length > 0 && !this.asked) void this.ask();
    return [];
  }

  /** What a chat's session calls read (ChatOptions.mcp). */
  forChat(chatId: string): ChatMcp {
    return { vscode: this.vscodeServers(), off: this.d.offOf(chatId) };
  }

  private async ask(): Promise<void> {
    this.asked = true; // once per window while undecided; the answer is kept in the user's settings
    const yes = 'Use Them';
    const no = "Don't Use";
    const answer = await vscode.window.showInformationMessage(
      "Give the MCP servers of VS Code's user mcp.json to ACP Chat's agents too? (Workspace mcp.json files are never used.)",
      yes,
      no,
    );
    if (answer === undefined) return;
    await vscode.workspace.getConfiguration('acpChat').update('useVSCodeMcpServers', answer === yes ? 'yes' : 'no', vscode.ConfigurationTarget.Global);
    this.d.log('info', `acpChat.useVSCodeMcpServers set to ${answer === yes ? 'yes' : 'no'} by the user; it applies to the next session`);
  }

  /**
   * "ACP: Choose MCP Servers for This Chat": returns the new off-list, or undefined when cancelled or nothing
   * to choose. `enabled` (from a caller of the command, such as a test) is the choice without the quick pick.
   */
  async choose(chat: ChatController, chatId: string, enabled?: readonly string[]): Promise<readonly string[] | undefined> {
    const all = configuredMcpServers(this.d.settings().mcpServers, this.vscodeServers(), (m) => this.d.log('warn', m));
    if (all.length === 0) {
      void vscode.window.showInformationMessage("No MCP servers are configured: add them to acpChat.mcpServers (or agree to use VS Code's user mcp.json).");
      return undefined;
    }
    const previous = this.d.offOf(chatId);
    const caps = chat.door.running ? chat.door.facts()?.capabilities : undefined;
    const rows = mcpPickRows(all, new Set(previous), caps, chat.agent.name);
    const items = rows.map((r) => ({ label: labelText(r.name, 80), description: labelText(r.detail, 200), picked: r.picked, name: r.name }));
    const picked =
      enabled ??
      (await vscode.window.showQuickPick(items, { canPickMany: true, title: 'MCP servers for this chat', placeHolder: "Checked servers are given to the chat's sessions" }))?.map(
        (p) => p.name,
      );
    if (picked === undefined) return undefined;
    const off = mcpOffAfterPick(previous, all, picked);
    this.d.setOff(chatId, off);
    await applyMcpChoice(
      chat,
      off.filter((n) => all.some((c) => c.server.name === n)),
    );
    return off;
  }
}
