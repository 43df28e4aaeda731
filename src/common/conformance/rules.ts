/**
 * The conformance rules: stable ids an agent author can grep for, a default severity and where the
 * rule comes from. `error` is a MUST of the schema or the RFDs (../shared/acp); `warning` is a SHOULD
 * or a known interoperability trap (something real clients drop or mis-render). A few rules report
 * some findings at a lower severity than their default (noted in `source`); the finding carries its own.
 */

export type Severity = 'error' | 'warning';

export interface Rule {
  readonly severity: Severity;
  /** What the rule checks, in one line. */
  readonly title: string;
  /** The schema section or RFD the rule comes from. */
  readonly source: string;
}

export const RULES = {
  'stdout-not-json': {
    severity: 'error',
    title: 'a line on stdout that is not JSON',
    source: 'transports: the agent MUST NOT write anything but ACP messages to stdout',
  },
  'invalid-message': {
    severity: 'error',
    title: 'not a JSON-RPC 2.0 message, or params/result that break the schema of a known method',
    source: 'JSON-RPC 2.0; schema/v1|v2 method params and results',
  },
  'field-malformed': {
    severity: 'warning',
    title: 'an optional field or list item that breaks the schema (clients drop it)',
    source: 'schema x-deserialize-default-on-error / x-deserialize-skip-invalid-items',
  },
  'unknown-method': {
    severity: 'error',
    title: 'a method that is neither in the schema (for this direction) nor an extension method (`_…`)',
    source: 'extensibility: custom methods start with `_`; every other name is reserved',
  },
  'update-kind-unknown': {
    severity: 'warning',
    title: 'a session/update variant the negotiated protocol does not define',
    source: 'schema SessionUpdate (v1: a closed union; SDK clients drop unknown variants)',
  },
  'message-id-missing': {
    severity: 'error',
    title: 'a v2 message chunk/upsert without a messageId; in v1 (warning) an agent that sends ids omits one',
    source: 'RFD message-id (v1 SHOULD) and v2 message-updates (messageId required)',
  },
  'message-id-kind-conflict': {
    severity: 'error',
    title: 'one messageId used for different message kinds (a session_message counts as a kind of its own)',
    source: 'RFD message-id: ids are unique per message within a session',
  },
  'tool-call-unknown': {
    severity: 'warning',
    title: 'a tool_call_update for a toolCallId that was never announced',
    source: 'v1 tool calls: announce with tool_call (with a title) before updating it',
  },
  'tool-call-after-end': {
    severity: 'warning',
    title: 'an update to a tool call after it completed, failed or was cancelled',
    source: 'tool-call lifecycle: completed/failed are final',
  },
  'update-after-turn-end': {
    severity: 'warning',
    title: 'turn content (chunks, tool calls, plan) after the turn ended',
    source: 'prompt turn: all updates of a turn precede the session/prompt response (v2: the idle state_update)',
  },
  'session-update-early': {
    severity: 'warning',
    title: 'an update or request for a session before the client received its id',
    source: 'session setup: the client learns the id from the session/new response; early updates race it',
  },
  'session-unknown': {
    severity: 'error',
    title: 'an update or request for a session id the client never received (nor saw announced as a subagent)',
    source: 'session/update and client methods carry a sessionId the client created or loaded, or a child a subagent_update announced',
  },
  'subagent-before-announce': {
    severity: 'error',
    title: "a subagent session's update or request, or a session_message naming it, before the subagent_update that announces it",
    source: 'schema SubagentUpdate (unstable): the first update for a child MUST be sent before any live child traffic or message naming it',
  },
  'subagent-reply-unprompted': {
    severity: 'warning',
    title: 'a session_message from a subagent when no earlier session_message addressed that subagent',
    source: 'schema SessionMessage (unstable): a parent messages its child, the child answers; a reply with no prompt cannot be placed',
  },
  'update-after-close': {
    severity: 'warning',
    title: 'an update or request for a session, or a subagent of it, after the agent answered its session/close',
    source: "session/close: the agent cancels the session's work and frees it; the session owns its subagents (schema SubagentUpdate)",
  },
  'compaction-status-order': {
    severity: 'warning',
    title: 'a compaction that ends without starting in_progress, or takes another state after it ended (a repeated completed is fine)',
    source: 'schema CompactionUpdate / CompactionStatus: in_progress, then completed, failed or cancelled',
  },
  'compaction-unknown-id': {
    severity: 'warning',
    title: 'a compaction_summary_chunk for a compactionId no compaction_update started',
    source: 'schema CompactionSummaryChunk: a first-seen id creates an in-progress compaction, which a client cannot describe',
  },
  'capability-unadvertised': {
    severity: 'error',
    title: 'a client method the client did not advertise (error), or an agent method the agent answers without advertising it (warning)',
    source: 'initialize: capabilities; agents MUST NOT call what the client did not advertise',
  },
  'elicitation-schema-unsupported': {
    severity: 'error',
    title: 'a form elicitation whose requestedSchema is outside the restricted JSON Schema subset',
    source: 'schema ElicitationSchema: a flat object of string, number, integer, boolean and multi-select properties',
  },
  'elicitation-unknown-id': {
    severity: 'error',
    title: 'elicitation/complete for an elicitationId no URL-mode elicitation/create announced',
    source: 'schema CompleteElicitationNotification: completes a URL-mode elicitation by its id',
  },
  'elicitation-tool-call-unknown': {
    severity: 'warning',
    title: 'an elicitation scoped to a toolCallId the session never announced',
    source: 'schema ElicitationSessionScope: toolCallId names a tool call within the session',
  },
  'response-unknown-id': {
    severity: 'error',
    title: 'a response whose id matches no request the client sent',
    source: 'JSON-RPC 2.0: a response answers exactly one request, by id',
  },
  'response-duplicate': {
    severity: 'error',
    title: 'a second response to a request that was already answered',
    source: 'JSON-RPC 2.0: exactly one response per request',
  },
  'stop-reason-invalid': {
    severity: 'error',
    title: 'a stop reason that is not in the schema',
    source: 'schema StopReason (v1 closed set; v2 reserves every name not starting with `_`, warning)',
  },
  'cancel-not-honoured': {
    severity: 'error',
    title: 'a cancelled turn answered with an error or another stop reason',
    source: 'prompt turn §cancellation: after session/cancel the agent MUST answer stopReason "cancelled"',
  },
  'directory-not-absolute': {
    severity: 'error',
    title: 'a `cwd` or `additionalDirectories` entry that is not an absolute path',
    source: 'schema NewSessionRequest / LoadSessionRequest / ResumeSessionRequest / ForkSessionRequest / SessionInfo: each path must be absolute',
  },
  'plan-unknown-id': {
    severity: 'warning',
    title: 'plan_removed for a planId the session never sent in a plan_update (or removed already)',
    source: 'schema PlanRemoved (unstable): removes a plan the agent reported by its planId',
  },
  'error-object-invalid': {
    severity: 'error',
    title: 'an error response whose error is not {code: integer, message: string, data?}',
    source: 'JSON-RPC 2.0 error object; schema Error',
  },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];

export interface Finding {
  readonly rule: RuleId;
  readonly severity: Severity;
  /** The capture line (1-based) the finding is about. */
  readonly line: number;
  /** One line: what is wrong and what to change. */
  readonly message: string;
  readonly sessionId?: string;
}
