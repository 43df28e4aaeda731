/**
 * What a chat sends with every session-opening call (new, load, resume, fork): the working folder; the
 * MCP servers of `acpChat.mcpServers` and (when the user agreed) VS Code's user mcp.json that the chat did
 * not turn off and the agent can take (stdio always; http and sse only where its `mcpCapabilities` say so,
 * the others named in a notice; rules in common/mcp); the workspace's other folders as
 * `additionalDirectories` (only to an agent that advertises `sessionCapabilities.additionalDirectories`);
 * and on a new session the user's
 * `acpChat.systemPrompt` (unstable, only to an agent that advertises `sessionCapabilities.systemPrompt`).
 * Built afresh for each call, so a folder added to the workspace reaches the next session.
 */
import type { Settings } from '../../common/config/settings';
import type { AgentCapabilities, McpServer, SystemPrompt } from '../../common/protocol/requests';
import { chosenMcpServers, configuredMcpServers } from '../../common/mcp/mcpServers';
import type { Notice } from '../../common/notices';
import type { SessionParams } from '../acp/sessions';

export interface SessionParamsInput {
  readonly cwd: string;
  readonly settings: Settings;
  /** The workspace folders beside `cwd` (absolute paths), read now. */
  readonly additionalDirectories: readonly string[];
  readonly caps: AgentCapabilities | undefined;
  readonly warn: (message: string) => void;
  /** The configured MCP servers the agent cannot take (an http or sse server it did not advertise), by name. */
  readonly skipped?: (names: readonly string[]) => void;
  /** VS Code's user-level MCP servers (when the user agreed) and the names the chat turned off. */
  readonly mcp?: ChatMcp;
}

/** A chat's MCP inputs beyond the settings, read at each session call (chatPorts' `ChatOptions.mcp`). */
export interface ChatMcp {
  readonly vscode: readonly McpServer[];
  readonly off: readonly string[];
}

/** The chat's note about servers left out (one keyed notice, replaced at each session call, not repeated). */
export function mcpSkippedNotice(agentName: string, names: readonly string[]): Notice {
  return {
    severity: 'warning',
    key: 'mcp-unsupported',
    title: `${agentName} cannot use the MCP server${names.length > 1 ? 's' : ''} ${names.map((n) => `“${n}”`).join(', ')}: it does not take ${names.length > 1 ? 'their' : 'its'} transport (http or sse), so ${names.length > 1 ? 'they were' : 'it was'} not sent.`,
    description: 'stdio servers work with every agent; change the server in acpChat.mcpServers, or use an agent that supports it.',
  };
}

export function sessionParams(i: SessionParamsInput): SessionParams {
  const all = configuredMcpServers(i.settings.mcpServers, i.mcp?.vscode ?? [], i.warn);
  const { sent, skipped } = chosenMcpServers(all, new Set(i.mcp?.off ?? []), i.caps);
  if (skipped.length) i.skipped?.(skipped);
  // The schema's "omitted or empty" are the same; an agent without the capability is sent neither.
  const extra = i.caps?.sessionCapabilities?.additionalDirectories ? [...i.additionalDirectories] : [];
  return { cwd: i.cwd, mcpServers: sent, ...(extra.length ? { additionalDirectories: extra } : {}) };
}

/** The `systemPrompt` member of a `session/new`, or nothing (no setting, or an agent that did not advertise it). */
export function systemPromptParam(settings: Settings, caps: AgentCapabilities | undefined): { systemPrompt?: SystemPrompt } {
  const text = settings.systemPrompt.trim();
  // The schema forbids an empty content array, and `append` is the mode every advertising agent takes.
  if (text === '' || !caps?.sessionCapabilities?.systemPrompt) return {};
  return { systemPrompt: { mode: 'append', content: [{ type: 'text', text }] } };
}

/** What a chat reads its session params from (chatPorts' `ChatOptions`, structurally: no import circle). */
interface ChatParamsSource {
  readonly cwd: string;
  settings(): Settings;
  readonly additionalDirectories?: () => readonly string[];
  readonly mcp?: () => ChatMcp;
  log(level: 'warn', message: string): void;
}

/** A chat's session params, read now; `fresh`: for a session/new, which also carries the user's system prompt. */
export function chatSessionParams(o: ChatParamsSource, caps: AgentCapabilities | undefined, skipped: (names: readonly string[]) => void, fresh: boolean): SessionParams {
  const p = sessionParams({
    cwd: o.cwd,
    settings: o.settings(),
    additionalDirectories: o.additionalDirectories?.() ?? [],
    caps,
    mcp: o.mcp?.(),
    warn: (m) => o.log('warn', m),
    skipped,
  });
  return fresh ? { ...p, ...systemPromptParam(o.settings(), caps) } : p;
}
