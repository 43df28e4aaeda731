/**
 * ACP method names, as data. Nothing else in the code base spells a method name as a string literal.
 * Names follow the v1 schema (`schema/v1/schema.json`), plus the v2 draft names we understand.
 */

/** Requests and notifications the client sends to the agent. */
export const AgentMethods = {
  initialize: 'initialize',
  authenticate: 'authenticate',
  logout: 'logout',
  sessionNew: 'session/new',
  sessionLoad: 'session/load',
  sessionResume: 'session/resume',
  sessionList: 'session/list',
  sessionClose: 'session/close',
  sessionDelete: 'session/delete',
  // Unstable (v1 and v2 `schema.unstable.json`), each behind a `sessionCapabilities` marker.
  sessionFork: 'session/fork',
  sessionSetTitle: 'session/set_title',
  sessionArchive: 'session/archive',
  sessionUnarchive: 'session/unarchive',
  sessionSetMode: 'session/set_mode',
  sessionSetConfigOption: 'session/set_config_option',
  sessionPrompt: 'session/prompt',
  /** Notification. */
  sessionCancel: 'session/cancel',
  /**
   * Extension (Claude Code and Codex adapters): a prompt steered into the running turn instead of
   * queued as the next `session/prompt`; offered when `InitializeResponse._meta.steering.supported`.
   */
  sessionSteering: '_session/steering',
} as const;

/** v2 draft renames (ACP v2 §18): used only on a connection that negotiated protocol 2. */
export const AgentMethodsV2 = {
  authLogin: 'auth/login',
  authLogout: 'auth/logout',
} as const;

/** Requests and notifications the agent sends to the client. */
export const ClientMethods = {
  /** Notification. */
  sessionUpdate: 'session/update',
  sessionRequestPermission: 'session/request_permission',
  fsReadTextFile: 'fs/read_text_file',
  fsWriteTextFile: 'fs/write_text_file',
  terminalCreate: 'terminal/create',
  terminalOutput: 'terminal/output',
  terminalWaitForExit: 'terminal/wait_for_exit',
  terminalKill: 'terminal/kill',
  terminalRelease: 'terminal/release',
  /** Stable since v1 (2026-07-24), behind `clientCapabilities.elicitation.form` / `.url`. */
  elicitationCreate: 'elicitation/create',
  /** Notification: a URL-mode elicitation finished on the agent's side. */
  elicitationComplete: 'elicitation/complete',
} as const;

/** Methods either side may send. */
export const ProtocolMethods = {
  /** Notification `{ requestId }`: ACP's generic cancellation (not LSP's `$/cancelRequest`). */
  cancelRequest: '$/cancel_request',
} as const;

/** JSON-RPC and ACP error codes (v1 `ErrorCode`, plus v2's -32022). */
export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  authRequired: -32000,
  resourceNotFound: -32002,
  unsupportedProtocolVersion: -32022,
} as const;

/** The wire protocol versions this client can speak. 1 is stable; 2 is the draft. */
export const PROTOCOL_V1 = 1;
export const PROTOCOL_V2 = 2;
export type ProtocolVersion = typeof PROTOCOL_V1 | typeof PROTOCOL_V2;
