/**
 * What an `AcpClient` is built from. Its own file because callers (the agent link, the CLI, tests, the
 * conformance check) build these options without needing the client's implementation.
 */
import type { Readable, Writable } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import type { Implementation } from '../../common/protocol/requests';
import type { ProtocolVersion } from '../../common/protocol/methods';
import type { Direction } from '../../common/protocol/direction';
import type { CheckedMessage } from '../../common/jsonrpc/rpc';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { LogFn } from '../transport/connection';
import type { InvalidLine } from '../transport/ndjson';
import type { ClientHandlers } from './handlers';

export type { Direction };

/** What the caller does with each `session` capability's updates, when it advertises it. */
export interface SessionFeatures {
  /** Shows `compaction_update` / `compaction_summary_chunk` as a compaction row (`session.compaction`). */
  readonly compaction?: boolean;
  /** Shows `notice` updates to the user with their severity, as text (`session.notices`). */
  readonly notices?: boolean;
  /** Shows `type: "boolean"` config options as toggles and sets them (`session.configOptions.boolean`). */
  readonly booleanConfigOptions?: boolean;
}

export interface AcpClientOptions {
  /** The agent's stdout. */
  input: Readable;
  /** The agent's stdin. */
  output: Writable;
  handlers: ClientHandlers;
  clientInfo: Implementation;
  /** The version to ask for (default 1). */
  protocolVersion?: ProtocolVersion;
  /**
   * The caller can run terminal-type auth methods (the agent's command again, in an interactive terminal):
   * advertised as `clientCapabilities.auth.terminal`, so agents may offer them.
   */
  terminalAuth?: boolean;
  /**
   * The caller shows subagents (child sessions announced by `subagent_update`, their messages and requests
   * under the root session's chat): advertised as `clientCapabilities.subagents` (v1 unstable; v2 needs no
   * capability). The boundary itself (a child's requests are served like its parent's) holds either way.
   */
  subagents?: boolean;
  /** The session features the caller shows: advertised as `clientCapabilities.session` (v1 stable), only those it serves. */
  session?: SessionFeatures;
  /**
   * Every message both ways, with the exact JSON line it was read from or written as; for a message read,
   * also the transport's one check of it (hand it to `MessageStore.ingestChecked`).
   */
  tap?: (dir: Direction, msg: Message, raw: string, checked?: CheckedMessage) => void;
  /** Transport limits (defaults: 32 MiB per message, 256 levels of nesting, 256 queued messages). */
  limits?: { maxMessageBytes?: number; maxNesting?: number; maxQueued?: number };
  /** Non-JSON / invalid lines on the agent's stdout (logged and skipped). */
  onInvalidLine?: (line: InvalidLine) => void;
  log?: LogFn;
  /** Extra words for "connection closed" errors, e.g. exit code and the last stderr lines. */
  describeClose?: () => string | undefined;
  /**
   * Settles when the close can be described (e.g. the agent process's exit): stdout often ends
   * before the exit status and last stderr lines are known. Waited for at most 1 s.
   */
  closeSettled?: () => Promise<unknown>;
  /**
   * Where the agent's permission requests wait (the chat's broker, whose cards the panel shows); by default
   * the client's own. The client keeps none itself: it registers each request there and awaits it.
   */
  permissions?: PermissionBroker;
}
