/**
 * What the client needs from its host to answer agent->client requests. The VS Code side supplies
 * its own (permission UI, workspace edits, unsaved buffers); `nodeHandlers.ts` has plain-Node ones for
 * the CLI. Capabilities advertised in `initialize` follow exactly which handlers are present.
 */
import type {
  CreateTerminalParams,
  CreateTerminalResult,
  ReadTextFileParams,
  ReadTextFileResult,
  RequestPermissionParams,
  RequestPermissionResult,
  TerminalExitStatus,
  TerminalOutputResult,
  TerminalParams,
  WriteTextFileParams,
} from '../../common/protocol/requests';
import type { CreateElicitationParams, CreateElicitationResult } from '../../common/protocol/elicitation';
import type { FormModel } from '../../common/elicitation/form';
import type { AskUser } from '../../common/permissionBroker';

export interface TerminalHost {
  create(p: CreateTerminalParams): Promise<CreateTerminalResult>;
  output(p: TerminalParams): Promise<TerminalOutputResult>;
  waitForExit(p: TerminalParams, signal: AbortSignal): Promise<TerminalExitStatus>;
  kill(p: TerminalParams): Promise<void>;
  release(p: TerminalParams): Promise<void>;
}

/** An `elicitation/create` the client accepted: the params, and the form read from a form mode's schema. */
export interface ElicitationAsk {
  readonly params: CreateElicitationParams;
  /** Null in URL mode. */
  readonly form: FormModel | null;
  /** The agent's JSON-RPC id of the request (the store's elicitation entry carries the same). */
  readonly rpcId: string | number | null;
}

export interface ElicitationHost {
  /** The modes served, advertised as `clientCapabilities.elicitation.form` / `.url`. */
  readonly modes: { readonly form: boolean; readonly url: boolean };
  /**
   * Ask the user. `signal` aborts when the turn is cancelled, the agent withdraws the request or the
   * connection ends; the client then answers `cancel` itself. Accepted form content is validated by the
   * client against the requested schema before it is sent.
   */
  create(ask: ElicitationAsk, signal: AbortSignal): Promise<CreateElicitationResult>;
  /** `elicitation/complete`: the agent says a URL-mode elicitation is done. */
  complete?(elicitationId: string): void;
}

export interface ClientHandlers {
  /**
   * Decide by a rule or a policy, or `askUser` (the pending request's card in the panel). `signal` aborts
   * once the request is settled otherwise (the turn's cancel, `$/cancel_request`, the connection's end): the
   * `PermissionBroker` has answered `cancelled` then, so the handler may just stop.
   */
  requestPermission(p: RequestPermissionParams, signal: AbortSignal, askUser: AskUser): Promise<RequestPermissionResult>;
  readTextFile?(p: ReadTextFileParams, signal: AbortSignal): Promise<ReadTextFileResult>;
  writeTextFile?(p: WriteTextFileParams, signal: AbortSignal): Promise<void>;
  terminals?: TerminalHost;
  elicitation?: ElicitationHost;
}
