/**
 * zod schemas for ACP v1 request params and results (everything except `session/update` payloads,
 * which live in `updates.ts`), and the v2 draft's where they differ. Types come from `z.infer`. The
 * requests the agent sends us are in `clientRequests.ts` (re-exported here).
 *
 * Policy (house rules): the envelope is strict — a required field with the wrong type fails the
 * message — while variants are tolerant: objects are loose (unknown fields kept), malformed optional
 * fields fall back to "absent", and open enums accept any string. Results that the schema defines as
 * "empty objects" accept `null` too (§3: some agents answer `null`).
 */
import * as z from 'zod';
import { zContentBlock, zMeta } from './content';
import { optional, tolerantItem } from './tolerant';
import { zEnvVariable } from './clientRequests';
import { zSessionMode } from './updates';

// The agent's requests to the client (permission, fs, terminals) are clientRequests.ts; read through here.
export * from './clientRequests';

/** An "empty" result: `{}` or `null` on the wire; always `{}` (plus any `_meta`) after parsing. */
export const zEmptyResult = z.union([z.looseObject({ _meta: optional(zMeta) }), z.null(), z.undefined()]).transform((v) => v ?? {});

const zRequestId = z.union([z.string(), z.number()]);

// ---------------------------------------------------------------- initialize

const zImplementation = z.looseObject({
  name: z.string(),
  title: optional(z.string().nullable()),
  version: z.string().catch(''),
});
export type Implementation = z.infer<typeof zImplementation>;

const zClientCapabilities = z.looseObject({
  fs: optional(z.looseObject({ readTextFile: optional(z.boolean()), writeTextFile: optional(z.boolean()) })),
  terminal: optional(z.boolean()),
  auth: optional(z.looseObject({ terminal: optional(z.boolean()) })),
  session: optional(z.looseObject({})),
  /** `{}` per supported mode; `elicitation: {}` alone supports neither. */
  elicitation: optional(z.looseObject({ form: optional(z.looseObject({}).nullable()), url: optional(z.looseObject({}).nullable()) })),
  /** v1 unstable: `{}` = the client understands subagent sessions (`subagent_update`, `session_message`); v2 has it as a baseline. */
  subagents: optional(z.looseObject({}).nullable()),
  _meta: optional(zMeta),
});
export type ClientCapabilities = z.infer<typeof zClientCapabilities>;

export const zInitializeParams = z.looseObject({
  protocolVersion: z.number().int().nonnegative(),
  clientCapabilities: optional(zClientCapabilities),
  clientInfo: optional(zImplementation),
  _meta: optional(zMeta),
});

/** A capability marker: newer capabilities are objects where `{}` means "supported". */
const zMarker = optional(z.looseObject({}).nullable());

const zAgentCapabilities = z.looseObject({
  loadSession: optional(z.boolean()),
  promptCapabilities: optional(z.looseObject({ image: optional(z.boolean()), audio: optional(z.boolean()), embeddedContext: optional(z.boolean()) })),
  mcpCapabilities: optional(z.looseObject({ http: optional(z.boolean()), sse: optional(z.boolean()) })),
  sessionCapabilities: optional(
    // fork, archive (archive + unarchive) and title (set_title) are unstable-schema markers.
    // systemPrompt is an unstable-schema marker too (its `mode` names the modes beyond `append`).
    z.looseObject({
      list: zMarker,
      delete: zMarker,
      resume: zMarker,
      close: zMarker,
      additionalDirectories: zMarker,
      fork: zMarker,
      archive: zMarker,
      title: zMarker,
      systemPrompt: zMarker,
    }),
  ),
  auth: optional(z.looseObject({ logout: zMarker })),
  _meta: optional(zMeta),
});
export type AgentCapabilities = z.infer<typeof zAgentCapabilities>;

/** v1 names an id `id`; the v2 draft `methodId` / `configId`. Copies it to `id` (keeping the original) so the client reads one field. */
function idFrom(field: string) {
  return (o: unknown) => (typeof o === 'object' && o !== null && !('id' in o) && field in o ? { ...o, id: (o as Record<string, unknown>)[field] } : o);
}

/** `type` is open: absent means "agent"; unknown types (e.g. codex's `env_var`) are kept for display. v2 names the id `methodId`. */
const zAuthMethodFields = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: optional(z.string()),
  description: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
const zAuthMethod = z.preprocess(idFrom('methodId'), zAuthMethodFields);
export type AuthMethod = z.infer<typeof zAuthMethodFields>;

export const zInitializeResult = z.looseObject({
  protocolVersion: z.number().int().nonnegative(),
  agentCapabilities: optional(zAgentCapabilities),
  // Invalid items are dropped rather than failing initialize (x-deserialize-skip-invalid-items spirit).
  authMethods: optional(z.array(z.unknown()).transform((items) => items.flatMap((i) => tolerantItem(zAuthMethod, i)))),
  agentInfo: optional(zImplementation),
  _meta: optional(zMeta),
});
export type InitializeResult = z.infer<typeof zInitializeResult>;

export const zAuthenticateParams = z.looseObject({ methodId: z.string(), _meta: optional(zMeta) });

// ---------------------------------------------------------------- sessions

const zHttpHeader = z.looseObject({ name: z.string(), value: z.string() });
/** stdio servers have no `type` in v1; http/sse carry one. */
export const zMcpServer = z.union([
  z.looseObject({ type: z.enum(['http', 'sse']), name: z.string(), url: z.string(), headers: z.array(zHttpHeader) }),
  z.looseObject({
    type: optional(z.literal('stdio')),
    name: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    env: z.array(zEnvVariable),
  }),
]);
export type McpServer = z.infer<typeof zMcpServer>;

/**
 * `modes` as the protocol defines it, checking a session result whole: one invalid mode fails the result
 * (and conformance reports it). The store reads the same field with `zSessionModeState`, which skips it.
 */
const zSessionModesChecked = z.looseObject({ currentModeId: z.string(), availableModes: z.array(zSessionMode) });

const zConfigSelectOption = z.looseObject({ value: z.string(), name: z.string(), description: optional(z.string().nullable()) });
const zConfigSelectGroup = z.looseObject({ group: z.string(), name: z.string(), options: z.array(zConfigSelectOption) });
/** `type` and `category` are open: unknown option types are kept and ignored by the UI (§14). v2 names the id `configId`. */
const zSessionConfigOptionFields = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: optional(z.string().nullable()),
  category: optional(z.string().nullable()),
  type: z.string(),
  currentValue: z.union([z.string(), z.boolean(), z.number()]).nullable().catch(null),
  options: optional(z.array(z.union([zConfigSelectOption, zConfigSelectGroup]))),
  _meta: optional(zMeta),
});
const zSessionConfigOption = z.preprocess(idFrom('configId'), zSessionConfigOptionFields);
const zConfigOptions = z.array(z.unknown()).transform((items) => items.flatMap((i) => tolerantItem(zSessionConfigOption, i)));

/** Unstable `SystemPrompt`: instructions the agent adds to its own (`append`; `override` needs its own marker). */
const zSystemPrompt = z.looseObject({ mode: z.string(), content: z.array(z.unknown()) });
export type SystemPrompt = z.infer<typeof zSystemPrompt>;

export const zNewSessionParams = z.looseObject({
  cwd: z.string(),
  mcpServers: z.array(zMcpServer),
  additionalDirectories: optional(z.array(z.string())),
  systemPrompt: optional(zSystemPrompt.nullable()),
  _meta: optional(zMeta),
});
export type NewSessionParams = z.infer<typeof zNewSessionParams>;

const sessionStateFields = {
  modes: optional(zSessionModesChecked.nullable()),
  configOptions: optional(zConfigOptions.nullable()),
  _meta: optional(zMeta),
};
export const zNewSessionResult = z.looseObject({ sessionId: z.string(), ...sessionStateFields });
export type NewSessionResult = z.infer<typeof zNewSessionResult>;

export const zLoadSessionParams = z.looseObject({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: z.array(zMcpServer),
  additionalDirectories: optional(z.array(z.string())),
  _meta: optional(zMeta),
});
export type LoadSessionParams = z.infer<typeof zLoadSessionParams>;
/** load/resume results: `{modes?, configOptions?}`; `null` from older agents means "nothing". */
export const zSessionStateResult = z.union([z.looseObject(sessionStateFields), z.null(), z.undefined()]).transform((v) => v ?? {});
export type SessionStateResult = z.infer<typeof zSessionStateResult>;

export const zResumeSessionParams = z.looseObject({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: optional(z.array(zMcpServer)),
  additionalDirectories: optional(z.array(z.string())),
  _meta: optional(zMeta),
});
export type ResumeSessionParams = z.infer<typeof zResumeSessionParams>;

export const zListSessionsParams = z.looseObject({
  cwd: optional(z.string()),
  cursor: optional(z.string()),
  /** Unstable: `exclude` (default), `include` or `only` archived sessions; needs `sessionCapabilities.archive`. */
  archived: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
export type ListSessionsParams = z.infer<typeof zListSessionsParams>;
const zSessionInfo = z.looseObject({
  sessionId: z.string(),
  cwd: z.string().catch(''),
  title: optional(z.string().nullable()),
  updatedAt: optional(z.string().nullable()),
  archived: optional(z.boolean().nullable()),
  _meta: optional(zMeta),
});
export type SessionInfo = z.infer<typeof zSessionInfo>;
export const zListSessionsResult = z.looseObject({
  sessions: z.array(z.unknown()).transform((items) => items.flatMap((i) => tolerantItem(zSessionInfo, i))),
  nextCursor: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
export type ListSessionsResult = z.infer<typeof zListSessionsResult>;

export const zSessionIdParams = z.looseObject({ sessionId: z.string(), _meta: optional(zMeta) });

export const zSetModeParams = z.looseObject({ sessionId: z.string(), modeId: z.string(), _meta: optional(zMeta) });

export const zSetConfigOptionParams = z.looseObject({
  sessionId: z.string(),
  configId: z.string(),
  type: optional(z.literal('boolean')),
  value: z.union([z.string(), z.boolean()]),
  _meta: optional(zMeta),
});
export const zSetConfigOptionResult = z.looseObject({ configOptions: zConfigOptions, _meta: optional(zMeta) });
export type SetConfigOptionResult = z.infer<typeof zSetConfigOptionResult>;

// ---------------------------------------------------------------- prompt turn

export const zPromptParams = z.looseObject({ sessionId: z.string(), prompt: z.array(zContentBlock), _meta: optional(zMeta) });
/** Stop reasons are an open set on the wire; we keep unknown ones as strings. */
export const STOP_REASONS = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const;
export const zPromptResult = z.looseObject({ stopReason: z.string(), _meta: optional(zMeta) });
/**
 * What `AcpClient.prompt` resolves with. In v2 the response only acknowledges insertion
 * (`{messageId}`) and the stop reason comes from the idle `state_update`; the client merges both.
 */
export type PromptResult = z.infer<typeof zPromptResult> & { messageId?: string };
/** v2 draft `session/prompt` response: the id of the inserted user message. */
export const zPromptResultV2 = z.looseObject({ messageId: z.string(), _meta: optional(zMeta) });

/**
 * v2 draft initialize response: `info` / `capabilities` replace `agentInfo` / `agentCapabilities`.
 * Normalised to the v1 shape so the rest of the client reads one form; v2 session capabilities
 * `{}` mean the baseline list/resume/close are all present, and there is no `session/load`.
 */
export const zInitializeResultV2 = z
  .looseObject({
    protocolVersion: z.number().int().nonnegative(),
    info: optional(zImplementation),
    capabilities: optional(
      z.looseObject({
        session: optional(
          z
            .looseObject({
              prompt: optional(z.looseObject({ image: zMarker, audio: zMarker, embeddedContext: zMarker }).nullable()),
              delete: zMarker,
              fork: zMarker,
              archive: zMarker,
              title: zMarker,
            })
            .nullable(),
        ),
      }),
    ),
    authMethods: optional(z.array(z.unknown()).transform((items) => items.flatMap((i) => tolerantItem(zAuthMethod, i)))),
    _meta: optional(zMeta),
  })
  .transform((r) => {
    const session = r.capabilities?.session;
    const prompt = session?.prompt;
    const agentCapabilities: AgentCapabilities = {
      loadSession: false,
      promptCapabilities: { image: !!prompt?.image, audio: !!prompt?.audio, embeddedContext: !!prompt?.embeddedContext },
      sessionCapabilities: session ? { list: {}, resume: {}, close: {}, ...markers(session, ['delete', 'fork', 'archive', 'title']) } : {},
      // v2 has no logout marker: auth/logout is mandatory when the agent offers sign-in methods.
      ...(r.authMethods?.length ? { auth: { logout: {} } } : {}),
    };
    return { ...r, agentCapabilities, agentInfo: r.info };
  });

/** The named markers that are present (`{}` or an object), copied (with what they hold: `fork` may name sub-markers). */
function markers<K extends string>(from: Partial<Record<K, unknown>>, names: readonly K[]): Partial<Record<K, object>> {
  const out: Partial<Record<K, object>> = {};
  for (const n of names) {
    const marker = from[n];
    if (typeof marker === 'object' && marker !== null) out[n] = { ...marker };
  }
  return out;
}

/** v2 `state_update` (only what the client needs to end a turn). */
export const zStateUpdate = z.looseObject({
  sessionUpdate: z.literal('state_update'),
  state: z.string(),
  stopReason: optional(z.string().nullable()),
});

/** `session/update` envelope only; the variants are parsed by the store (`updates.ts`). */
export const zSessionNotification = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({ sessionUpdate: z.string() }),
  _meta: optional(zMeta),
});
export type SessionNotification = z.infer<typeof zSessionNotification>;

// ---------------------------------------------------------------- generic

export const zCancelRequestParams = z.looseObject({ requestId: zRequestId, _meta: optional(zMeta) });
