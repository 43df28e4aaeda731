/**
 * zod schemas for `session/update` params and every update variant the store understands
 * (v1 stable, plus the v2 draft's whole-message upserts and `tool_call_content_chunk`).
 *
 * Tolerance policy (house rules): the envelope (`sessionId`, `update.sessionUpdate`) and each variant's
 * *required* fields are strict — a failure rejects the update with an error naming the field. Optional
 * fields that are malformed fall back to "absent" and are reported as warnings; invalid items inside
 * arrays are skipped with a warning (the schema's default-on-error / skip-invalid-items marks).
 * Unknown `sessionUpdate` kinds are not an error: the caller ignores them with a warning.
 */
import { issueText as firstIssue } from '../util/errors';
import * as z from 'zod';
import { collectWarnings, skipInvalid, tolerant, warn } from './updateWarnings';
import { compactionPatch, zCompactionSummaryChunk, zCompactionUpdate, type CompactionChunk, type CompactionPatch } from './compaction';
import { PROTOCOL_V2, type ProtocolVersion } from './methods';
import { zContentBlock, zMeta, zToolCallContent, zToolCallLocation } from './content';
import { planOf, type AgentPlan } from './planUpdates';

const zNullableString = z.string().nullable();

// ---- message chunks -------------------------------------------------------------------------------

export type ChunkKind = 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk' | 'session_message_chunk';
export type MessageUpsertKind = 'user_message' | 'agent_message' | 'agent_thought' | 'session_message';

/** v1: `messageId` optional; omitted and `null` mean the same ("the agent did not say"). */
const zContentChunkV1 = z.looseObject({
  content: zContentBlock,
  messageId: tolerant('messageId', zNullableString),
  _meta: tolerant('_meta', zMeta.nullable()),
});
/** v2: `messageId` is required and non-null. */
const zContentChunkV2 = z.looseObject({
  content: zContentBlock,
  messageId: z.string(),
  _meta: tolerant('_meta', zMeta.nullable()),
});

/** v2 whole-message upsert: `content` / `_meta` are patch fields (omitted = unchanged, null = clear). */
const zMessageUpsert = z.looseObject({
  messageId: z.string(),
  // A malformed `content` falls back to "omitted" (unchanged), as the schema's default-on-error mark says.
  content: z
    .union([skipInvalid('content', zContentBlock), z.null()])
    .optional()
    .catch((ctx) => {
      warn(`malformed optional field 'content' ignored (${firstIssue(ctx.error)})`);
      return undefined;
    }),
  _meta: z
    .union([zMeta, z.null()])
    .optional()
    .catch((ctx) => {
      warn(`malformed optional field '_meta' ignored (${firstIssue(ctx.error)})`);
      return undefined;
    }),
});

// ---- tool calls -----------------------------------------------------------------------------------

/** A `tool_call` is a full snapshot: omitted fields take their defaults. */
const zToolCall = z.looseObject({
  toolCallId: z.string(),
  title: z.string(),
  name: tolerant('name', zNullableString),
  kind: tolerant('kind', zNullableString),
  status: tolerant('status', zNullableString),
  content: tolerant('content', z.union([skipInvalid('content', zToolCallContent), z.null()])),
  locations: tolerant('locations', z.union([skipInvalid('locations', zToolCallLocation), z.null()])),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  /** Dirigent-style link from a tool call to the message it belongs to (not in the v1 schema). */
  messageId: tolerant('messageId', zNullableString),
  _meta: tolerant('_meta', zMeta.nullable()),
});

/**
 * `tool_call_update` and a permission request's `toolCall`: a patch with the same fields as `tool_call`,
 * of which only `toolCallId` is required (the store applies omit/null per protocol version).
 */
export const zToolCallPatch = zToolCall.extend({ title: tolerant('title', zNullableString) });
export type ToolCallPatch = z.infer<typeof zToolCallPatch>;

/** v2 `tool_call_content_chunk`: appends one ToolCallContent item. */
const zToolCallContentChunk = z.looseObject({
  toolCallId: z.string(),
  content: zToolCallContent,
  _meta: tolerant('_meta', zMeta.nullable()),
});

// ---- session state updates ------------------------------------------------------------------------

/** `_meta: null` is valid (the schema's `["object","null"]`) and means the same as absent. */
const zMetaOrNull = zMeta.nullable().transform((m) => m ?? undefined);

const zPlanEntry = z.looseObject({
  content: z.string(),
  priority: z.string(),
  status: z.string(),
  _meta: tolerant('_meta', zMetaOrNull),
});
const zPlan = z.looseObject({ entries: skipInvalid('entries', zPlanEntry) });
/** `plan_update` (v2, and v1 unstable behind `clientCapabilities.plan`): one plan by `planId` (planUpdates.ts). */
const zPlanUpdate = z.looseObject({
  plan: z.looseObject({
    type: z.string(),
    planId: z.string(),
    entries: tolerant('plan.entries', skipInvalid('plan.entries', zPlanEntry)),
    content: tolerant('plan.content', z.string()),
    uri: tolerant('plan.uri', z.string()),
  }),
});
const zPlanRemoved = z.looseObject({ planId: z.string() });

const zAvailableCommand = z.looseObject({
  name: z.string(),
  description: z.string(),
  input: tolerant('input', z.looseObject({ hint: z.string() }).nullable()),
  _meta: tolerant('_meta', zMetaOrNull),
});
export const zAvailableCommandsUpdate = z.looseObject({ availableCommands: skipInvalid('availableCommands', zAvailableCommand) });
const zCurrentModeUpdate = z.looseObject({ currentModeId: z.string() });
/**
 * A session config option. v1 names it `id`, the v2 draft `configId`; both are read and `id` is filled
 * in from `configId` so the rest of the client reads one field (the original member is kept too).
 */
export const zConfigOption = z.preprocess(
  (o) => (typeof o === 'object' && o !== null && !('id' in o) && 'configId' in o ? { ...o, id: o.configId } : o),
  z.looseObject({ id: z.string(), name: z.string(), type: z.string() }),
);
const zConfigOptionUpdate = z.looseObject({ configOptions: skipInvalid('configOptions', zConfigOption) });
const zSessionInfoUpdate = z.looseObject({
  title: tolerant('title', zNullableString),
  updatedAt: tolerant('updatedAt', zNullableString),
});
const zUsageUpdate = z.looseObject({
  used: z.number(),
  size: z.number(),
  cost: tolerant('cost', z.looseObject({ amount: z.number(), currency: z.string() }).nullable()),
});

/** One session mode, wherever the protocol names one (a session result's `modes`, the store's saved modes). */
export const zSessionMode = z.looseObject({ id: z.string(), name: z.string(), description: tolerant('description', zNullableString) });
/**
 * `modes` in a session/new, load or resume result as the store reads it: an invalid mode is skipped and
 * the rest kept. The client's check of the whole result (`requests.ts`) fails on one instead, so conformance
 * reports it.
 */
export const zSessionModeState = z.looseObject({
  currentModeId: z.string(),
  availableModes: skipInvalid('availableModes', zSessionMode),
});

// ---- subagents: child sessions and the messages between sessions (v1 unstable, v2 baseline) -----------

/**
 * The child's current foreground work, a whole snapshot: `running`, `idle` (with a stop reason),
 * `requires_action`, `unknown`, or a custom value (kept as it came).
 */
const zSubagentState = z.looseObject({ state: z.string(), stopReason: tolerant('state.stopReason', zNullableString) });

/**
 * `subagent_update`, sent on the parent: the first one for an unknown `sessionId` announces the child.
 * Every field but the id is a patch (omitted = unchanged, null = clear; malformed = omitted, with a warning).
 */
const zSubagentUpdate = z.looseObject({
  sessionId: z.string().min(1),
  title: tolerant('title', zNullableString),
  description: tolerant('description', zNullableString),
  capabilities: tolerant('capabilities', z.looseObject({ cancel: z.unknown().optional() }).nullable()),
  state: tolerant('state', zSubagentState.nullable()),
  cwd: tolerant('cwd', zNullableString),
});

/** `session_message`: an upsert of an inter-session message; its route fields are patches too. */
const zSessionMessage = zMessageUpsert.extend({
  senderSessionId: tolerant('senderSessionId', zNullableString),
  recipientSessionId: tolerant('recipientSessionId', zNullableString),
  senderMessageId: tolerant('senderMessageId', zNullableString),
  recipientMessageId: tolerant('recipientMessageId', zNullableString),
});

/** `session_message_chunk`: one content block appended to an inter-session message (its id is required). */
const zSessionMessageChunk = zContentChunkV2;

/** What a `subagent_update` changes: `canCancel` is absent when capabilities were not sent. */
export interface SubagentPatch {
  readonly childSessionId: string;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly canCancel?: boolean;
  readonly state?: z.infer<typeof zSubagentState> | null;
  readonly cwd?: string | null;
}

/** Who sent a session message to whom, and its id in the other session's transcript (each a patch field). */
export type RoutePatch = Pick<z.infer<typeof zSessionMessage>, 'senderSessionId' | 'recipientSessionId' | 'senderMessageId' | 'recipientMessageId'>;

// ---- the parsed update union ----------------------------------------------------------------------

export type ContentChunk = { readonly content: z.infer<typeof zContentBlock>; readonly messageId: string | null };
export type SessionUpdate =
  | { readonly kind: 'chunk'; readonly chunkKind: ChunkKind; readonly chunk: ContentChunk }
  | { readonly kind: 'message'; readonly upsertKind: MessageUpsertKind; readonly upsert: z.infer<typeof zMessageUpsert>; readonly route?: RoutePatch }
  | { readonly kind: 'subagent'; readonly patch: SubagentPatch }
  | { readonly kind: 'tool_call'; readonly toolCall: z.infer<typeof zToolCall> }
  | { readonly kind: 'tool_call_update'; readonly patch: ToolCallPatch }
  | { readonly kind: 'tool_call_content_chunk'; readonly chunk: z.infer<typeof zToolCallContentChunk> }
  | { readonly kind: 'plan'; readonly entries: z.infer<typeof zPlanEntry>[] }
  | { readonly kind: 'plan_update'; readonly plan: AgentPlan }
  | { readonly kind: 'plan_removed'; readonly planId: string }
  | { readonly kind: 'available_commands'; readonly commands: z.infer<typeof zAvailableCommand>[] }
  | { readonly kind: 'current_mode'; readonly currentModeId: string }
  | { readonly kind: 'config_options'; readonly configOptions: z.infer<typeof zConfigOption>[] }
  | { readonly kind: 'session_info'; readonly info: z.infer<typeof zSessionInfoUpdate> }
  | { readonly kind: 'usage'; readonly usage: z.infer<typeof zUsageUpdate> }
  | { readonly kind: 'compaction'; readonly patch: CompactionPatch }
  | { readonly kind: 'compaction_chunk'; readonly chunk: CompactionChunk }
  /** A known variant the store has no entry for (notices, state/terminal updates). */
  | { readonly kind: 'ignored'; readonly sessionUpdate: string };

/** Known variants the store deliberately does not model; ignored without a warning. (v2 terminal updates feed
 * the panel's terminal view in the chat controller, see common/protocol/terminalUpdates.) */
const IGNORED_KINDS = new Set(['notice', 'state_update', 'terminal_update', 'terminal_output_chunk']);

const zSessionUpdateParams = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({ sessionUpdate: z.string() }),
});

export type ParseResult =
  | { readonly ok: true; readonly sessionId: string; readonly update: SessionUpdate; readonly warnings: readonly string[] }
  | {
      readonly ok: false;
      /** `error`: rejected. `warning`: an unknown variant, ignored. */
      readonly severity: 'error' | 'warning';
      readonly sessionId: string | null;
      readonly message: string;
    };

function variant<T extends z.ZodType>(schema: T, raw: unknown, kind: string): { data: z.infer<T> } | { error: string } {
  const r = schema.safeParse(raw);
  return r.success ? { data: r.data } : { error: `malformed ${kind} update: ${firstIssue(r.error)}` };
}

/** Parses `session/update` params for the negotiated protocol version. Never throws. */
export function parseSessionUpdate(params: unknown, version: ProtocolVersion): ParseResult {
  const env = zSessionUpdateParams.safeParse(params);
  if (!env.success) {
    const sid = typeof params === 'object' && params !== null && 'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : null;
    return { ok: false, severity: 'error', sessionId: sid, message: `malformed session/update params: ${firstIssue(env.error)}` };
  }
  const { sessionId, update: raw } = env.data;
  const kind = raw.sessionUpdate;
  const warnings: string[] = [];
  const result = collectWarnings(warnings, () => parseVariant(kind, raw, version));
  if ('error' in result) return { ok: false, severity: result.severity, sessionId, message: result.error };
  return { ok: true, sessionId, update: result.update, warnings };
}

type VariantResult = { update: SessionUpdate } | { error: string; severity: 'error' | 'warning' };

function parseVariant(kind: string, raw: unknown, version: ProtocolVersion): VariantResult {
  const v2 = version === PROTOCOL_V2;
  const fail = (error: string): VariantResult => ({ error, severity: 'error' });
  switch (kind) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const r = variant(v2 ? zContentChunkV2 : zContentChunkV1, raw, kind);
      if ('error' in r) return fail(r.error);
      return { update: { kind: 'chunk', chunkKind: kind, chunk: { content: r.data.content, messageId: r.data.messageId ?? null } } };
    }
    case 'user_message':
    case 'agent_message':
    case 'agent_thought': {
      if (!v2) return { error: `'${kind}' is a v2 update; ignored on a v1 connection`, severity: 'warning' };
      const r = variant(zMessageUpsert, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'message', upsertKind: kind, upsert: r.data } };
    }
    case 'session_message_chunk': {
      const r = variant(zSessionMessageChunk, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'chunk', chunkKind: kind, chunk: { content: r.data.content, messageId: r.data.messageId } } };
    }
    case 'session_message': {
      const r = variant(zSessionMessage, raw, kind);
      if ('error' in r) return fail(r.error);
      const { senderSessionId, recipientSessionId, senderMessageId, recipientMessageId, ...upsert } = r.data;
      return { update: { kind: 'message', upsertKind: kind, upsert, route: { senderSessionId, recipientSessionId, senderMessageId, recipientMessageId } } };
    }
    case 'subagent_update': {
      const r = variant(zSubagentUpdate, raw, kind);
      if ('error' in r) return fail(r.error);
      const d = r.data;
      const canCancel = d.capabilities === undefined ? undefined : d.capabilities !== null && d.capabilities.cancel !== undefined && d.capabilities.cancel !== null;
      const patch: SubagentPatch = {
        childSessionId: d.sessionId,
        ...(d.title !== undefined ? { title: d.title } : {}),
        ...(d.description !== undefined ? { description: d.description } : {}),
        ...(canCancel !== undefined ? { canCancel } : {}),
        ...(d.state !== undefined ? { state: d.state } : {}),
        ...(d.cwd !== undefined ? { cwd: d.cwd } : {}),
      };
      return { update: { kind: 'subagent', patch } };
    }
    case 'tool_call': {
      const r = variant(zToolCall, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'tool_call', toolCall: r.data } };
    }
    case 'tool_call_update': {
      const r = variant(zToolCallPatch, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'tool_call_update', patch: r.data } };
    }
    case 'tool_call_content_chunk': {
      const r = variant(zToolCallContentChunk, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'tool_call_content_chunk', chunk: r.data } };
    }
    case 'plan': {
      const r = variant(zPlan, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'plan', entries: r.data.entries } };
    }
    case 'plan_update': {
      const r = variant(zPlanUpdate, raw, kind);
      if ('error' in r) return fail(r.error);
      const plan = planOf(r.data.plan);
      // A plan type of a later draft (the v2 enum is open) is not ours to show: ignored without a warning.
      if (plan === null) return { update: { kind: 'ignored', sessionUpdate: kind } };
      return typeof plan === 'string' ? { error: plan, severity: 'warning' } : { update: { kind: 'plan_update', plan } };
    }
    case 'plan_removed': {
      const r = variant(zPlanRemoved, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'plan_removed', planId: r.data.planId } };
    }
    case 'available_commands_update': {
      const r = variant(zAvailableCommandsUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'available_commands', commands: r.data.availableCommands } };
    }
    case 'current_mode_update': {
      const r = variant(zCurrentModeUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'current_mode', currentModeId: r.data.currentModeId } };
    }
    case 'config_option_update': {
      const r = variant(zConfigOptionUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'config_options', configOptions: r.data.configOptions } };
    }
    case 'session_info_update': {
      const r = variant(zSessionInfoUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'session_info', info: r.data } };
    }
    case 'usage_update': {
      const r = variant(zUsageUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'usage', usage: r.data } };
    }
    case 'compaction_update': {
      const r = variant(zCompactionUpdate, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'compaction', patch: compactionPatch(r.data) } };
    }
    case 'compaction_summary_chunk': {
      const r = variant(zCompactionSummaryChunk, raw, kind);
      return 'error' in r ? fail(r.error) : { update: { kind: 'compaction_chunk', chunk: { compactionId: r.data.compactionId, content: r.data.content } } };
    }
    default:
      if (IGNORED_KINDS.has(kind)) return { update: { kind: 'ignored', sessionUpdate: kind } };
      return { error: `unknown session update kind '${kind}' ignored`, severity: 'warning' };
  }
}
