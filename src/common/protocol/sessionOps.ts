/**
 * zod schemas for the session operations beyond the stable set (`session/fork`, `session/set_title`,
 * `session/archive`, `session/unarchive`, from the unstable v1/v2 schemas), plus `session/delete` and
 * `logout`, terminal-type auth methods, and which of these operations an agent advertised.
 * Same policy as requests.ts: strict on required fields, loose objects, bad optional fields dropped.
 */
import * as z from 'zod';
import { zMeta } from './content';
import { zMcpServer, zNewSessionResult, type AgentCapabilities, type AuthMethod } from './requests';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** `ForkSessionRequest`: `cwd` required; `mcpServers` and `additionalDirectories` default to `[]` on null. */
export const zForkSessionParams = z.looseObject({
  sessionId: z.string(),
  cwd: z.string(),
  mcpServers: z
    .array(zMcpServer)
    .nullish()
    .transform((v) => v ?? []),
  additionalDirectories: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  _meta: optional(zMeta),
});
export type ForkSessionParams = z.input<typeof zForkSessionParams>;

/** `ForkSessionResponse`: the new session's id plus what session/new answers (modes, config options; v2 also commands). */
export const zForkSessionResult = zNewSessionResult;
export type ForkSessionResult = z.infer<typeof zForkSessionResult>;

/** `SetSessionTitleRequest`: `title` is required and non-null. */
export const zSetSessionTitleParams = z.looseObject({ sessionId: z.string(), title: z.string(), _meta: optional(zMeta) });
/** `SetSessionTitleResponse`: the title as the agent stored it (it may trim or truncate). */
export const zSetSessionTitleResult = z.looseObject({ title: z.string(), _meta: optional(zMeta) });
export type SetSessionTitleResult = z.infer<typeof zSetSessionTitleResult>;

/** A terminal sign-in's arguments and environment (both forms below): absent or null is none. */
const zArgs = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);
const zEnv = z
  .record(z.string(), z.string())
  .nullish()
  .transform((v) => v ?? {});

/**
 * `AuthMethodTerminal`: the client runs the agent's own configured command in an interactive terminal
 * with `args` appended and `env` overriding; exit status 0 means signed in. `env` is a name -> value map
 * here (unlike terminal/create's list). A method whose args or env are malformed cannot be run as the
 * agent meant, so it is not offered (null means "none", as the schema says).
 */
export const zTerminalAuthMethod = z.looseObject({
  type: z.literal('terminal'),
  id: z.string(),
  name: z.string(),
  description: optional(z.string().nullable()),
  args: zArgs,
  env: zEnv,
  _meta: optional(zMeta),
});
/**
 * A terminal sign-in to run. `command` is set only by Zed's `_meta["terminal-auth"]` convention (the agent
 * names another program); otherwise the agent's own configured command is run with `args` appended.
 */
export type TerminalAuthMethod = z.infer<typeof zTerminalAuthMethod> & { readonly command?: string; readonly label?: string };

/** Agents published before the schema form use `_meta`: Zed's `terminal-auth` {command, args, env?, label} and `{type: "terminal", args}`. */
const zMetaTerminal = z.looseObject({
  'terminal-auth': optional(
    z.looseObject({
      command: z.string().min(1),
      args: zArgs,
      env: zEnv,
      label: optional(z.string()),
    }),
  ),
  type: optional(z.string()),
  args: optional(z.array(z.string())),
});

/**
 * The method as a terminal sign-in: the schema's `type: "terminal"`, or one of the `_meta` conventions of
 * agents that predate it. Undefined for other types and for malformed terminal methods (never guessed at).
 */
export function asTerminalAuthMethod(m: AuthMethod): TerminalAuthMethod | undefined {
  if (m.type === 'terminal') {
    const r = zTerminalAuthMethod.safeParse(m);
    return r.success ? r.data : undefined;
  }
  if (m.type !== undefined && m.type !== 'agent') return undefined;
  const meta = zMetaTerminal.safeParse(m._meta);
  if (!meta.success) return undefined;
  const base = { type: 'terminal' as const, id: m.id, name: m.name, description: m.description };
  const zed = meta.data['terminal-auth'];
  if (zed) return { ...base, command: zed.command, args: zed.args, env: zed.env, ...(zed.label !== undefined ? { label: zed.label } : {}) };
  if (meta.data.type === 'terminal' && meta.data.args) return { ...base, args: meta.data.args, env: {} };
  return undefined;
}

/** An auth method ACP Chat can run: `agent` type (absent type) through `authenticate`, or a terminal sign-in. */
export function isRunnableAuthMethod(m: AuthMethod): boolean {
  return asTerminalAuthMethod(m) !== undefined || (m.type ?? 'agent') === 'agent';
}

/** The session operations an agent may offer beyond the baseline, by the name the commands use. */
export type SessionOperation = 'fork' | 'title' | 'archive' | 'close' | 'delete' | 'list' | 'logout';

/** The method each operation sends (archive also covers `session/unarchive`), for messages to the user. */
export const OPERATION_METHOD: Readonly<Record<SessionOperation, string>> = {
  fork: 'session/fork',
  title: 'session/set_title',
  archive: 'session/archive',
  close: 'session/close',
  delete: 'session/delete',
  list: 'session/list',
  logout: 'logout',
};

/** Whether the agent advertised `op` in initialize (markers: present and not null means supported). */
export function supportsOperation(caps: AgentCapabilities | undefined, op: SessionOperation): boolean {
  if (op === 'logout') return !!caps?.auth?.logout;
  return !!caps?.sessionCapabilities?.[op];
}
