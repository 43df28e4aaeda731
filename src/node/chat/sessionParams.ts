/**
 * What a chat sends with every session-opening call (new, load, resume, fork): the working folder, the
 * MCP servers of `acpChat.mcpServers` the agent can take (stdio always; http and sse only where its
 * `mcpCapabilities` say so, the others named in a notice), the workspace's other folders as `additionalDirectories` (only to an
 * agent that advertises `sessionCapabilities.additionalDirectories`), and on a new session the user's
 * `acpChat.systemPrompt` (unstable, only to an agent that advertises `sessionCapabilities.systemPrompt`).
 * Built afresh for each call, so a folder added to the workspace reaches the next session.
 */
import type { Settings } from '../../common/config/settings';
import { zMcpServer, type AgentCapabilities, type McpServer, type SystemPrompt } from '../../common/protocol/requests';
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
}

/** stdio servers every agent takes; http and sse only where `agentCapabilities.mcpCapabilities` says so. */
export function agentTakes(server: McpServer, caps: AgentCapabilities | undefined): boolean {
  if (server.type === 'http') return caps?.mcpCapabilities?.http === true;
  if (server.type === 'sse') return caps?.mcpCapabilities?.sse === true;
  return true;
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
  const mcpServers = i.settings.mcpServers.flatMap((raw, n) => {
    const r = zMcpServer.safeParse(raw);
    if (!r.success) i.warn(`acpChat.mcpServers[${n}] is not a valid ACP McpServer and was not sent: ${r.error.message}`);
    return r.success ? [r.data] : [];
  });
  const left = mcpServers.filter((s) => !agentTakes(s, i.caps));
  if (left.length) i.skipped?.(left.map((s) => s.name));
  // The schema's "omitted or empty" are the same; an agent without the capability is sent neither.
  const extra = i.caps?.sessionCapabilities?.additionalDirectories ? [...i.additionalDirectories] : [];
  return { cwd: i.cwd, mcpServers: mcpServers.filter((s) => agentTakes(s, i.caps)), ...(extra.length ? { additionalDirectories: extra } : {}) };
}

/** The `systemPrompt` member of a `session/new`, or nothing (no setting, or an agent that did not advertise it). */
export function systemPromptParam(settings: Settings, caps: AgentCapabilities | undefined): { systemPrompt?: SystemPrompt } {
  const text = settings.systemPrompt.trim();
  // The schema forbids an empty content array, and `append` is the mode every advertising agent takes.
  if (text === '' || !caps?.sessionCapabilities?.systemPrompt) return {};
  return { systemPrompt: { mode: 'append', content: [{ type: 'text', text }] } };
}
