/**
 * The MCP servers a chat may give its agent, and which of them it does: the servers of `acpChat.mcpServers`
 * and (when the user agreed) of VS Code's user-level `mcp.json`, minus the ones the chat turned off, minus
 * the http / sse servers the agent did not advertise. Pure, so the quick pick, the session calls and the
 * tests share one set of rules. Server names are data (a file's keys): kept in arrays and Sets, never used
 * as keys of plain objects.
 */
import * as z from 'zod';
import { zMcpServer, type AgentCapabilities, type McpServer } from '../protocol/requests';

/** How each configured server is offered: where it came from and its transport. */
export interface ConfiguredMcpServer {
  readonly server: McpServer;
  readonly source: 'settings' | 'vscode';
}

export type McpTransport = 'stdio' | 'http' | 'sse';

export function transportOf(server: McpServer): McpTransport {
  return server.type === 'http' || server.type === 'sse' ? server.type : 'stdio';
}

/** stdio servers every agent takes; http and sse only where `agentCapabilities.mcpCapabilities` says so. */
function agentTakes(server: McpServer, caps: AgentCapabilities | undefined): boolean {
  if (server.type === 'http') return caps?.mcpCapabilities?.http === true;
  if (server.type === 'sse') return caps?.mcpCapabilities?.sse === true;
  return true;
}

/**
 * Every configured server, settings first: a VS Code server whose name a settings server already has is
 * left out (the name is what the agent and the chat's choice know it by). Invalid settings entries are
 * reported to `warn` and skipped.
 */
export function configuredMcpServers(settings: readonly unknown[], vscode: readonly McpServer[], warn: (message: string) => void): ConfiguredMcpServer[] {
  const out: ConfiguredMcpServer[] = [];
  const names = new Set<string>();
  settings.forEach((raw, n) => {
    const r = zMcpServer.safeParse(raw);
    if (!r.success) warn(`acpChat.mcpServers[${n}] is not a valid ACP McpServer and was not sent: ${r.error.message}`);
    else if (names.has(r.data.name)) warn(`acpChat.mcpServers[${n}]: a server named ${JSON.stringify(r.data.name)} is already configured; this one was not sent`);
    else {
      names.add(r.data.name);
      out.push({ server: r.data, source: 'settings' });
    }
  });
  for (const s of vscode) {
    if (names.has(s.name)) warn(`VS Code's mcp.json server ${JSON.stringify(s.name)} has the name of a server in acpChat.mcpServers; the setting's is used`);
    else {
      names.add(s.name);
      out.push({ server: s, source: 'vscode' });
    }
  }
  return out;
}

/** What a session is opened with: the servers on for the chat that the agent takes, and the ones it cannot take. */
export function chosenMcpServers(
  all: readonly ConfiguredMcpServer[],
  off: ReadonlySet<string>,
  caps: AgentCapabilities | undefined,
): { readonly sent: McpServer[]; readonly skipped: string[] } {
  const on = all.filter((c) => !off.has(c.server.name)).map((c) => c.server);
  return { sent: on.filter((s) => agentTakes(s, caps)), skipped: on.filter((s) => !agentTakes(s, caps)).map((s) => s.name) };
}

/** One row of "Choose MCP Servers for This Chat". */
export interface McpPickRow {
  readonly name: string;
  readonly picked: boolean;
  /** e.g. "http · VS Code mcp.json · this agent cannot take http" (caps unknown: the agent has not started). */
  readonly detail: string;
}

export function mcpPickRows(all: readonly ConfiguredMcpServer[], off: ReadonlySet<string>, caps: AgentCapabilities | undefined, agentName: string): McpPickRow[] {
  return all.map(({ server, source }) => {
    const t = transportOf(server);
    const from = source === 'vscode' ? "VS Code's mcp.json" : 'acpChat.mcpServers';
    const can =
      caps === undefined ? `${agentName} has not said yet whether it takes ${t}` : agentTakes(server, caps) ? `${agentName} can use it` : `${agentName} cannot take ${t}: not sent`;
    return { name: server.name, picked: !off.has(server.name), detail: `${t} · ${from} · ${can}` };
  });
}

/**
 * The chat's new off-list after the pick: every configured server not picked. Names of servers no longer
 * configured that were off stay off (a server removed and added back keeps the chat's choice).
 */
export function mcpOffAfterPick(previous: readonly string[], all: readonly ConfiguredMcpServer[], picked: readonly string[]): string[] {
  const configured = new Set(all.map((c) => c.server.name));
  const on = new Set(picked);
  const kept = previous.filter((n) => !configured.has(n));
  return [...new Set([...kept, ...all.map((c) => c.server.name).filter((n) => !on.has(n))])];
}

/** The chat's off-list as saved in its record: tolerant (bad values dropped), bounded. */
export const zMcpOff = z.array(z.string().max(500)).max(500);
