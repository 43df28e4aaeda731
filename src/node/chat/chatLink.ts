/**
 * A chat's agent link, as chatConnection.ts makes and uses it: what it is made with (the chat's handlers
 * and permission broker, every session feature the chat shows, and the one tap through which the wire
 * reaches the chat's traffic: capture, conformance, store, journal), and signing in on it.
 */
import type { AgentConfig } from '../../common/config/settings';
import type { PermissionBroker } from '../../common/permissionBroker';
import { ALL_SESSION_FEATURES, type AgentLink, type ConnectOptions } from '../acp/agentLink';
import type { ClientHandlers } from '../acp/handlers';
import type { ChatOptions } from './chatPorts';
import type { ChatTraffic } from './chatTraffic';

export function chatLinkOptions(o: ChatOptions, agent: AgentConfig, handlers: ClientHandlers, permissions: PermissionBroker, traffic: ChatTraffic): ConnectOptions {
  return {
    agent,
    cwd: o.cwd,
    handlers,
    permissions,
    session: ALL_SESSION_FEATURES, // compaction rows (the store), notices (the panel), boolean toggles (the pickers)
    protocolVersion: o.settings().protocolVersion,
    terminalAuth: o.ui.runTerminalAuth !== undefined,
    subagents: true, // the store nests them; the root's panel shows their requests (chatView), their work the turn (chatThread)
    tap: (dir, msg, raw, checked) => traffic.wire(dir, msg, raw, checked),
    log: o.log,
    onInvalidLine: (text, reason, lost) => traffic.skippedLine(text, reason, lost, agent.name),
    // Info, not debug: the agent's own complaints are the first thing to read when it misbehaves.
    onStderr: (text) => o.log('info', `[${agent.id} stderr] ${text.trimEnd()}`),
  };
}

/** Runs `call` (a session-creating request) on `link`, signing in first when the agent answers auth_required. */
export function withSignIn<T>(link: AgentLink, { ui, cwd }: ChatOptions, agent: AgentConfig, call: () => Promise<T>): Promise<T> {
  const terminal = ui.runTerminalAuth?.bind(ui);
  return link.client.withAuthRetry(call, (methods) => ui.chooseAuthMethod(agent.name, methods), terminal && ((m) => terminal(agent, m, cwd)));
}
