/**
 * *Add Agent…* › *Agent by URL…*: an agent that runs elsewhere (a container, a dev box, a cloud sandbox),
 * reached over WebSocket (`wss://`) or Streamable HTTP (`https://`). The URL is checked as the chat will
 * check it (common/config/agentUrl.ts); a token is never asked here nor written to the settings: the entry
 * names the header (`secretHeaders`), and the first connect asks its value into SecretStorage (agentSecrets.ts).
 */
import * as vscode from 'vscode';
import { freeId } from '../../common/agents/registry';
import { checkAgentUrl } from '../../common/config/agentUrl';
import type { AgentConfig } from '../../common/config/settings';
import { labelText } from '../../common/untrusted';

export interface RemoteAgentAnswers {
  readonly url: string;
  readonly name: string;
  readonly token: boolean;
}

/** The settings entry for the answers; `taken`: ids already in use. */
export function remoteAgentEntry(a: RemoteAgentAnswers, taken: readonly string[]): AgentConfig {
  const check = checkAgentUrl(a.url);
  if (!check.ok) throw new Error(check.reason);
  const host =
    new URL(check.url.href).hostname
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'remote';
  return {
    id: freeId(`remote-${host}`, [...taken, 'demo']),
    name: a.name.trim() || check.url.origin,
    command: '',
    args: [],
    env: {},
    url: check.url.href,
    ...(a.token ? { secretHeaders: ['Authorization'] } : {}),
  };
}

/** Asks for the URL, a name and whether it needs a token; undefined when the user stops. */
export async function askRemoteAgent(): Promise<RemoteAgentAnswers | undefined> {
  const url = await vscode.window.showInputBox({
    title: 'ACP: Add Agent by URL (1/3)',
    prompt: "The agent's address: wss://… (WebSocket) or https://… (Streamable HTTP); ws:// and http:// only to this machine. No token in the URL.",
    placeHolder: 'wss://agents.example.com/acp',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? null : ((c) => (c.ok ? null : c.reason))(checkAgentUrl(v.trim()))),
  });
  if (!url?.trim()) return undefined;
  const check = checkAgentUrl(url.trim());
  if (!check.ok) return undefined;
  const name = await vscode.window.showInputBox({
    title: 'ACP: Add Agent by URL (2/3)',
    prompt: 'A name for this agent',
    value: check.url.origin.replace(/^\w+:\/\//, ''),
    ignoreFocusOut: true,
  });
  if (name === undefined) return undefined;
  const token = await vscode.window.showQuickPick(
    [
      { label: 'No token', token: false },
      { label: 'A token (Authorization header)', detail: "Asked when the chat first connects, kept in VS Code's secret storage, never in settings or logs.", token: true },
    ],
    { title: `ACP: Add Agent by URL (3/3): ${labelText(check.url.origin)}`, placeHolder: 'Does the agent need a token?', ignoreFocusOut: true },
  );
  if (!token) return undefined;
  return { url: check.url.href, name, token: token.token };
}
