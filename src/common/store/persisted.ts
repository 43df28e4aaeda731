/**
 * The store's saved form: complete (entries with keys, session state, reducer bookkeeping, both
 * directions' pending requests, diagnostics), versioned, plain JSON. Restoring is tolerant: a bad
 * session or entry is reported and skipped, everything readable is kept.
 */
import { zSessionSetup } from './sessionSetup';
import { issueText } from '../util/errors';
import * as z from 'zod';
import {
  zSavedCommand,
  zSavedConfigOption,
  zSavedDiagnostic,
  zInternals,
  zSavedPlanEntry,
  zSavedMode,
  zSavedTerminal,
  zSavedUsage,
  type PersistedInternals,
} from './sessionSchema';
import { zPersistedEntry } from './entrySchema';
import type { Diagnostic, Entry, SessionState } from './model';
import type { Notice } from '../notices';
import { zEarlierLink, zNotice, type EarlierLink } from './clientEvents';
import { zFold } from './fold';

export const STORE_FORMAT = 'acp-chat/store';
export const STORE_FORMAT_VERSION = 1;

const defaultInternals: PersistedInternals = { open: -1, echo: null, lastAgentKey: null, replay: null };

const zSavedPlan = z.discriminatedUnion('type', [
  z.object({ planId: z.string(), type: z.literal('items'), entries: z.array(zSavedPlanEntry) }),
  z.object({ planId: z.string(), type: z.literal('markdown'), content: z.string() }),
  z.object({ planId: z.string(), type: z.literal('file'), uri: z.string() }),
]);

/** Session-level fields; entries are parsed one by one so one bad entry does not lose the session. */
export const zPersistedSession = z.object({
  sessionId: z.string(),
  protocolVersion: z.number().catch(1),
  entries: z.array(z.unknown()),
  plan: z.array(zSavedPlanEntry).nullable().catch(null),
  // Saves from before the plans by id have none; one bad plan drops the list, never the session.
  plans: z.array(zSavedPlan).catch([]),
  setup: zSessionSetup.nullable().catch(null),
  currentModeId: z.string().nullable().catch(null),
  availableModes: z.array(zSavedMode).catch([]),
  availableCommands: z.array(zSavedCommand).catch([]),
  configOptions: z.array(zSavedConfigOption).catch([]),
  usage: zSavedUsage.nullable().catch(null),
  title: z.string().nullable().catch(null),
  userTitle: z.string().optional().catch(undefined),
  updatedAt: z.string().nullable().catch(null),
  // Saves from before the store held terminal views have none.
  terminals: z.record(z.string(), zSavedTerminal).catch({}),
  // Saves from before Restore in place have none; one bad fold drops the list, never the session.
  folds: z.array(zFold).catch([]),
  internals: zInternals.catch(defaultInternals),
});

const zPendingRequest = z.object({
  method: z.string(),
  sessionId: z.string().nullable(),
  modeId: z.string().nullable(),
  localKey: z.string().nullable(),
  /** A `_session/steering` request's prompt, shown as the user's message once the turn took it. */
  steered: z.array(z.unknown()).optional(),
  /** A `session/fork` at a message: the fork holds the source's entries before that message only. */
  forkAt: z.string().optional(),
  /** What a session-opening request carried, kept once it is accepted (sessionSetup.ts). */
  setup: zSessionSetup.optional(),
});
export type PendingRequest = z.infer<typeof zPendingRequest>;

export const zPersistedStore = z.object({
  format: z.literal(STORE_FORMAT),
  version: z.literal(STORE_FORMAT_VERSION),
  protocolVersion: z.number().catch(1),
  // Saves from before the attached session was recorded have none: the caller falls back (see chatFactory).
  attached: z
    .string()
    .nullable()
    .optional()
    .catch(null)
    .transform((v) => v ?? null),
  sessions: z.array(z.unknown()),
  pending: z
    .object({
      'client->agent': z.array(z.tuple([z.string(), zPendingRequest])),
      'agent->client': z.array(z.tuple([z.string(), zPendingRequest])),
    })
    .catch({ 'client->agent': [], 'agent->client': [] }),
  diagnostics: z.array(zSavedDiagnostic).catch([]),
  // The client's notices by session ('' before any session) and the Changes summaries; saves from before have none.
  notices: z.array(z.tuple([z.string(), z.array(zNotice)])).catch([]),
  changes: z.unknown().optional(),
  // The earlier session shown above the attached one after a failed reattach; saves from before have none.
  earlier: zEarlierLink.nullable().optional().catch(null),
});

/** The JSON `MessageStore.toJSON()` returns. */
export interface PersistedStore {
  readonly format: typeof STORE_FORMAT;
  readonly version: typeof STORE_FORMAT_VERSION;
  readonly protocolVersion: number;
  readonly attached: string | null;
  readonly sessions: readonly (SessionState & { readonly internals: PersistedInternals })[];
  readonly pending: { readonly 'client->agent': readonly [string, PendingRequest][]; readonly 'agent->client': readonly [string, PendingRequest][] };
  readonly diagnostics: readonly Diagnostic[];
  readonly notices: readonly (readonly [string, readonly Notice[]])[];
  readonly changes?: unknown;
  readonly earlier?: EarlierLink;
}

/** Parses one saved entry. An entry saved without a key gets a key derived from its place, the same on every load. */
export function parseEntry(raw: unknown, sessionId: string, index: number): { entry: Entry } | { error: string } {
  const r = zPersistedEntry.safeParse(raw);
  if (!r.success) {
    return { error: `saved entry ${index} of session '${sessionId}' is unreadable (${issueText(r.error)}); skipped` };
  }
  const key = r.data.key ?? `restored:${sessionId}:${index}`;
  if (r.data.kind === 'tool_call') return { entry: { ...r.data, key, kind: 'tool_call' } };
  if (r.data.kind === 'elicitation') return { entry: { ...r.data, key, kind: 'elicitation' } };
  if (r.data.kind === 'subagent') return { entry: { ...r.data, key, kind: 'subagent' } };
  return { entry: { ...r.data, key } };
}

/** A copy with `stats.lines` detached from the live, store-owned run array. */
export function plainEntry(e: Entry): Entry {
  return { ...e, stats: { ...e.stats, lines: e.stats.lines.map((r) => [r[0], r[1]] as const) } };
}
