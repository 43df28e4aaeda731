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

export interface TerminalHost {
  create(p: CreateTerminalParams): Promise<CreateTerminalResult>;
  output(p: TerminalParams): Promise<TerminalOutputResult>;
  waitForExit(p: TerminalParams, signal: AbortSignal): Promise<TerminalExitStatus>;
  kill(p: TerminalParams): Promise<void>;
  release(p: TerminalParams): Promise<void>;
}

export interface ClientHandlers {
  /**
   * Ask the user (or a policy). `signal` aborts when the turn is cancelled or the agent sends
   * `$/cancel_request`; the client then answers `cancelled` itself, so the handler may just stop.
   */
  requestPermission(p: RequestPermissionParams, signal: AbortSignal): Promise<RequestPermissionResult>;
  readTextFile?(p: ReadTextFileParams, signal: AbortSignal): Promise<ReadTextFileResult>;
  writeTextFile?(p: WriteTextFileParams, signal: AbortSignal): Promise<void>;
  terminals?: TerminalHost;
}
