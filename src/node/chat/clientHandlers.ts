/**
 * The VS Code implementation of the client's host services: permission requests go to the user's rules,
 * then to the chat panel (the pending request's card, held by the PermissionBroker); files go through VS Code (FileAccess, behind `AgentFiles`); terminals are
 * real child processes (the Node TerminalHost shared with the CLI).
 */
import type { ClientHandlers, TerminalHost } from '../acp/handlers';
import type { RequestPermissionParams, RequestPermissionResult } from '../../common/protocol/requests';
import type { PermissionRule } from '../../common/config/settings';
import type { AskUser } from '../../common/permissionBroker';
import type { ElicitationBroker } from '../../common/elicitationBroker';
import { autoAnswer } from '../../common/permissions';

/** Who asks: the agent's display name and the ACP session the request belongs to. */
export interface Requester {
  readonly agentName: string;
  readonly sessionId: string;
  /** Whose session it is (the chat): "Allow for This Session" never carries over to another chat's session of the same id. */
  readonly scope: string;
}

/** A write the agent made through the client: the file's text before (null: it did not exist) and after. */
export interface AgentWrite {
  readonly previous: string | null;
  readonly written: string;
}

/** The agent's file access behind the workspace boundary (the extension's FileAccess, src/vscode/workspace/fsHandlers.ts). */
interface AgentFiles {
  agentRead(p: { path: string; line?: number | null; limit?: number | null }, who: Requester): Promise<string>;
  agentWrite(path: string, content: string, who: Requester): Promise<AgentWrite | null>;
}

export interface ClientHandlerDeps {
  readonly agentName: string;
  /** Whose sessions these are (the chat), for grants that last a session. */
  readonly scope: string;
  readonly files: AgentFiles;
  readonly elicitations: ElicitationBroker;
  /** Entry key of a pending elicitation (by the agent's request id), so the panel draws it there. */
  elicitationKey(sessionId: string, rpcId: string | number): string | null;
  readonly terminals: TerminalHost;
  rules(): readonly PermissionRule[];
  /** Entry key of a tool call, so the panel can show the request on its card. */
  toolCallKey(sessionId: string, toolCallId: string): string | null;
  /** Called after an `fs/write_text_file` changed a file (for the turn's Changes summary). */
  onWrite?(sessionId: string, path: string, write: AgentWrite): void;
  /** Called when a request must wait for the user (the panel is revealed or a notification shown). */
  onAsk(sessionId: string, title: string): void;
  log(message: string): void;
}

export function createClientHandlers(d: ClientHandlerDeps): ClientHandlers {
  return {
    async requestPermission(p: RequestPermissionParams, _signal: AbortSignal, askUser: AskUser): Promise<RequestPermissionResult> {
      const title = p.toolCall.title ?? p.toolCall.toolCallId;
      const auto = autoAnswer(d.rules(), { kind: p.toolCall.kind ?? null, title }, p.options);
      if (auto) {
        d.log(`permission for "${title}" answered by rule ${JSON.stringify(auto.rule)}: ${auto.option.name}`);
        return { outcome: { outcome: 'selected', optionId: auto.option.optionId } };
      }
      const answer = askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: d.toolCallKey(p.sessionId, p.toolCall.toolCallId), title, options: p.options });
      d.onAsk(p.sessionId, title);
      const outcome = await answer;
      return { outcome };
    },
    async readTextFile(p) {
      return { content: await d.files.agentRead(p, { agentName: d.agentName, sessionId: p.sessionId, scope: d.scope }) };
    },
    async writeTextFile(p) {
      const write = await d.files.agentWrite(p.path, p.content, { agentName: d.agentName, sessionId: p.sessionId, scope: d.scope });
      if (write) d.onWrite?.(p.sessionId, p.path, write);
    },
    terminals: d.terminals,
    elicitation: {
      modes: { form: true, url: true },
      async create(ask, signal) {
        const p = ask.params;
        const sessionId = p.sessionId ?? null;
        const entryKey = sessionId !== null && ask.rpcId !== null ? d.elicitationKey(sessionId, ask.rpcId) : null;
        const answer = d.elicitations.ask(sessionId, { entryKey, mode: p.mode, message: p.message, requestedSchema: p.requestedSchema ?? null, url: p.url ?? null }, signal);
        d.onAsk(sessionId ?? '', p.message);
        return answer;
      },
    },
  };
}
