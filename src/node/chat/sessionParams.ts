/**
 * What a chat sends with every session-opening call (new, load, resume, fork): the working folder, the
 * MCP servers of `acpChat.mcpServers`, the workspace's other folders as `additionalDirectories` (only to an
 * agent that advertises `sessionCapabilities.additionalDirectories`), and on a new session the user's
 * `acpChat.systemPrompt` (unstable, only to an agent that advertises `sessionCapabilities.systemPrompt`).
 * Built afresh for each call, so a folder added to the workspace reaches the next session.
 */
import type { Settings } from '../../common/config/settings';
import { zMcpServer, type AgentCapabilities, type SystemPrompt } from '../../common/protocol/requests';
import type { SessionParams } from '../acp/sessions';

export interface SessionParamsInput {
  readonly cwd: string;
  readonly settings: Settings;
  /** The workspace folders beside `cwd` (absolute paths), read now. */
  readonly additionalDirectories: readonly string[];
  readonly caps: AgentCapabilities | undefined;
  readonly warn: (message: string) => void;
}

export function sessionParams(i: SessionParamsInput): SessionParams {
  const mcpServers = i.settings.mcpServers.flatMap((raw, n) => {
    const r = zMcpServer.safeParse(raw);
    if (!r.success) i.warn(`acpChat.mcpServers[${n}] is not a valid ACP McpServer and was not sent: ${r.error.message}`);
    return r.success ? [r.data] : [];
  });
  // The schema's "omitted or empty" are the same; an agent without the capability is sent neither.
  const extra = i.caps?.sessionCapabilities?.additionalDirectories ? [...i.additionalDirectories] : [];
  return { cwd: i.cwd, mcpServers, ...(extra.length ? { additionalDirectories: extra } : {}) };
}

/** The `systemPrompt` member of a `session/new`, or nothing (no setting, or an agent that did not advertise it). */
export function systemPromptParam(settings: Settings, caps: AgentCapabilities | undefined): { systemPrompt?: SystemPrompt } {
  const text = settings.systemPrompt.trim();
  // The schema forbids an empty content array, and `append` is the mode every advertising agent takes.
  if (text === '' || !caps?.sessionCapabilities?.systemPrompt) return {};
  return { systemPrompt: { mode: 'append', content: [{ type: 'text', text }] } };
}
