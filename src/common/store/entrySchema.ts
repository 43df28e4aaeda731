/**
 * A transcript entry, written once: the zod schema that reads a saved entry back (tolerant: a field
 * saved by an older version, or damaged, falls back to its default), and through `z.infer` the type the
 * store, the projection and the tree use (model.ts). One shape, so a field is added here and nowhere
 * else on the store's side. Type-only importers (model.ts, and through it the webview) do not load zod.
 */
import * as z from 'zod';
import { zContentBlock, zMeta, zToolCallContent, zToolCallLocation } from '../protocol/content';

/**
 * Typed as zod's `.readonly()` (readonly fields, arrays and tuples, as the store treats entries) without
 * its runtime freeze: restoring 100,000 entries should not freeze each, and the store appends to an
 * entry's own `stats.lines` in place (stats.ts). Only `parse`/`safeParse` are called on these schemas.
 */
function typedReadonly<T extends z.ZodType>(schema: T): z.ZodReadonly<T> {
  return schema as unknown as z.ZodReadonly<T>;
}

/** Per-entry counters for the debug tree. Times are epoch milliseconds supplied by the caller. */
export const zStats = typedReadonly(
  z.object({
    /** `*_chunk` updates (and tool-call content chunks) applied to this entry. */
    chunks: z.number(),
    /** Whole-entry updates: v2 message upserts, `tool_call`, `tool_call_update`, permission `toolCall`s. */
    upserts: z.number(),
    /** UTF-8 bytes of text this entry received. */
    bytes: z.number(),
    firstSeen: z.number(),
    lastSeen: z.number(),
    /** Capture line numbers (1-based) that built this entry, run-length encoded as [first, last] pairs. */
    lines: typedReadonly(z.array(typedReadonly(z.tuple([z.number(), z.number()])))),
  }),
);
const emptyStats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };

/** Where an entry came from (`fork`: copied from the source session when `session/fork` answered). */
export const zProvenance = z.enum(['local', 'live', 'replay', 'fork']);

/** The store's durable key: assigned once at the append point, never sent to the agent. Saves from before keys have none (parseEntry derives one). */
const zKey = z.string().min(1).optional();

/**
 * A `session_message`'s route: the sending and receiving sessions, and the same message's id in the other
 * session's transcript (`senderMessageId` on the incoming view, `recipientMessageId` on the outgoing one).
 */
const zRoute = typedReadonly(
  z.object({
    senderSessionId: z.string().nullable().catch(null),
    recipientSessionId: z.string().nullable().catch(null),
    senderMessageId: z.string().nullable().catch(null),
    recipientMessageId: z.string().nullable().catch(null),
  }),
);

export const zMessageEntry = typedReadonly(
  z.object({
    /** `session_message`: a message between two sessions of the chat (a parent and its subagent), with its `route`. */
    kind: z.enum(['user_message', 'agent_message', 'agent_thought', 'session_message']),
    key: zKey,
    /** The agent's id for this message, or null when the agent gave none (yet). */
    messageId: z.string().nullable(),
    content: typedReadonly(z.array(zContentBlock)),
    meta: zMeta.nullable().catch(null),
    /** Only on `session_message` entries. */
    route: zRoute.optional().catch(undefined),
    /** A session/load replay told this shown message in other words: the shown text is kept, the message marked (issue 39). */
    replayDiffers: z.literal(true).optional().catch(undefined),
    provenance: zProvenance.catch('live'),
    stats: zStats.catch(emptyStats),
  }),
);

export const zToolCallEntry = typedReadonly(
  z.object({
    kind: z.literal('tool_call'),
    key: zKey,
    toolCallId: z.string(),
    title: z.string(),
    /** Programmatic tool name (`name` in the schema), when the agent sends one. */
    name: z.string().nullable().catch(null),
    /** The tool's ACP `kind` (`read`, `edit`, ...); `toolKind` so it does not clash with the entry `kind`. */
    toolKind: z.string(),
    status: z.string(),
    content: typedReadonly(z.array(zToolCallContent)).catch([]),
    locations: typedReadonly(z.array(zToolCallLocation)).catch([]),
    rawInput: z.unknown(),
    rawOutput: z.unknown(),
    meta: zMeta.nullable().catch(null),
    /** Key of the message this tool call belongs to (its `messageId`, or the agent message it followed). */
    parentKey: z.string().nullable().catch(null),
    /** Every status the tool call went through, with the time it was first seen in that status. */
    statusHistory: typedReadonly(z.array(typedReadonly(z.object({ status: z.string(), at: z.number() })))).catch([]),
    provenance: zProvenance.catch('live'),
    stats: zStats.catch(emptyStats),
  }),
);

/**
 * An agent's question (`elicitation/create` scoped to this session): what was asked and, once the client
 * answered, the answer. It is built from the wire like every entry, so the transcript keeps it.
 */
export const zElicitationEntry = typedReadonly(
  z.object({
    kind: z.literal('elicitation'),
    key: zKey,
    /** The agent's JSON-RPC request id (pairs the entry with the client's live prompt for it). */
    requestId: z.union([z.string(), z.number()]),
    /** `form`, `url`, or a future mode (shown as not supported). */
    mode: z.string(),
    message: z.string(),
    /** The tool call it belongs to, when the agent named one. */
    toolCallId: z.string().nullable().catch(null),
    /** Form mode: the schema as the agent sent it (read by `elicitation/form.ts`). */
    requestedSchema: z.unknown(),
    /** URL mode: the id `elicitation/complete` names, and the URL. */
    elicitationId: z.string().nullable().catch(null),
    url: z.string().nullable().catch(null),
    /** `pending` until answered, then the client's action (`accept`, `decline`, `cancel`), or `error`. */
    status: z.string(),
    /** Accepted form content as sent. */
    answer: typedReadonly(z.record(z.string(), z.unknown())).nullable().catch(null),
    /** URL mode: the agent sent `elicitation/complete`. */
    completed: z.boolean().catch(false),
    provenance: zProvenance.catch('live'),
    stats: zStats.catch(emptyStats),
  }),
);

/**
 * A subagent the agent started: the child session announced by `subagent_update` on this (the parent)
 * session, with what the parent says of it. The entry stands where the child was started (the delegation
 * card); the child's own transcript is the session `childSessionId` of the same store.
 */
export const zSubagentEntry = typedReadonly(
  z.object({
    kind: z.literal('subagent'),
    key: zKey,
    childSessionId: z.string(),
    title: z.string().nullable().catch(null),
    description: z.string().nullable().catch(null),
    /** The child offered `cancel` (a client may stop its current work). */
    canCancel: z.boolean().catch(false),
    /** `running`, `idle`, `requires_action`, `unknown`, a custom value, or null (not reported / cleared). */
    state: z.string().nullable().catch(null),
    /** With `idle`: why the work stopped, when reported. */
    stopReason: z.string().nullable().catch(null),
    /** When the current state was first reported (epoch ms), for "running for 12 s". */
    stateSince: z.number().catch(0),
    /** Where the agent placed the child, when it said (otherwise the parent's). */
    cwd: z.string().nullable().catch(null),
    provenance: zProvenance.catch('live'),
    stats: zStats.catch(emptyStats),
  }),
);

/**
 * A context compaction the agent ran (`compaction_update` / `compaction_summary_chunk`, upserted by its
 * `compactionId`): it stands where the compaction started, with its state and, once sent, its summary.
 */
export const zCompactionEntry = typedReadonly(
  z.object({
    kind: z.literal('compaction'),
    key: zKey,
    compactionId: z.string(),
    /** `in_progress`, `completed`, `failed`, `cancelled`, or a custom value (kept as it came). */
    status: z.string(),
    /** What the agent kept of the conversation (empty until sent; chunks append, an update replaces). */
    summary: typedReadonly(z.array(zContentBlock)).catch([]),
    /** With `failed`: the agent's error text. */
    error: z.string().nullable().catch(null),
    meta: zMeta.nullable().catch(null),
    provenance: zProvenance.catch('live'),
    stats: zStats.catch(emptyStats),
  }),
);

export const zPersistedEntry = z.discriminatedUnion('kind', [zMessageEntry, zToolCallEntry, zElicitationEntry, zSubagentEntry, zCompactionEntry]);
