/**
 * The headers of agents reached by URL (`acpChat.agents[].secretHeaders`): each value is asked once, in a
 * password box, and kept in VS Code's SecretStorage (the OS keychain), keyed by agent id and header name.
 * Never in settings, logs, captures or the debug bundle: the transport gets it as a header and nothing
 * else sees it. ACP: Forget Agent Tokens deletes them, so the next connect asks again.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../../common/config/settings';
import type { AgentHeaders } from '../../node/acp/connectAgent';
import { labelText } from '../../common/untrusted';
import { agentOrigin } from '../../common/config/agentUrl';
import { RemoteConfigError } from '../../node/transport/remoteLink';

const KEY_PREFIX = 'acpChat.agentHeader';
/** The agents whose headers were stored, so Forget can find them (SecretStorage cannot list its keys). */
const INDEX_KEY = 'acpChat.agentHeaderKeys';

const keyOf = (agentId: string, header: string) => `${KEY_PREFIX}/${encodeURIComponent(agentId)}/${header.toLowerCase()}`;

export function agentSecrets(context: vscode.ExtensionContext): { headers: AgentHeaders; forget(): Promise<number> } {
  const secrets = context.secrets;
  /** One question per header at a time (two chats of one agent starting together ask once). */
  const asking = new Map<string, Promise<string | undefined>>();
  const ask = (agent: AgentConfig, header: string): Promise<string | undefined> => {
    const key = keyOf(agent.id, header);
    const running = asking.get(key);
    if (running) return running;
    const p = (async () => {
      const stored = await secrets.get(key);
      if (stored) return stored;
      const value = await vscode.window.showInputBox({
        title: `${labelText(agent.name)} (${agentOrigin(agent) ?? ''}): ${header}`,
        prompt:
          header.toLowerCase() === 'authorization'
            ? 'The Authorization header for this agent, e.g. "Bearer <token>". Kept in VS Code\'s secret storage, asked once.'
            : `The value of the ${header} header for this agent. Kept in VS Code's secret storage, asked once.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (!value) return undefined;
      await secrets.store(key, value);
      const index = new Set(context.globalState.get<string[]>(INDEX_KEY, []));
      await context.globalState.update(INDEX_KEY, [...index.add(key)]);
      return value;
    })().finally(() => asking.delete(key));
    asking.set(key, p);
    return p;
  };
  return {
    headers: async (agent) => {
      const out: Record<string, string> = {};
      for (const header of agent.secretHeaders ?? []) {
        const value = await ask(agent, header);
        // Not the network: retrying would only ask again. Connecting again (Restart) asks again.
        if (value === undefined) throw new RemoteConfigError(`no value was given for the ${header} header of ${agent.name}; restart the agent to be asked again`);
        out[header] = value;
      }
      return out;
    },
    forget: async () => {
      const keys = context.globalState.get<string[]>(INDEX_KEY, []);
      for (const k of keys) await secrets.delete(k);
      await context.globalState.update(INDEX_KEY, []);
      return keys.length;
    },
  };
}
