/**
 * The `acpChat.*` settings, validated. VS Code validates against the JSON schema in package.json only in
 * the settings editor; settings.json can hold anything, so the extension parses it here and reports
 * what it had to drop instead of failing.
 */
import * as z from 'zod';
import { OUTSIDE_WORKSPACE_POLICIES, type OutsideWorkspacePolicy } from '../boundary';
import { issueText } from '../util/errors';

export const DEMO_AGENT_ID = 'demo';

/**
 * An agent is a command (stdio) or a `url` (WebSocket or Streamable HTTP: remoteUrl.ts judges it when the
 * chat connects). `secretHeaders` names headers whose values live in VS Code's SecretStorage, never here.
 */
export const zAgentConfig = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    command: z.string().default(''),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    url: z.string().min(1).optional(),
    secretHeaders: z
      .array(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name'))
      .max(8)
      .optional(),
  })
  .refine((a) => (a.url === undefined) !== (a.command === ''), { message: 'give either "command" or "url"' });
export type AgentConfig = z.infer<typeof zAgentConfig>;

const zPermissionRule = z.object({
  toolKind: z.string().optional(),
  titlePattern: z.string().optional(),
  action: z.enum(['allow', 'reject']),
});
export type PermissionRule = z.infer<typeof zPermissionRule>;

export interface Settings {
  readonly agents: readonly AgentConfig[];
  readonly defaultAgent: string;
  readonly protocolVersion: 1 | 2;
  readonly openOnStartup: boolean;
  readonly mcpServers: readonly Readonly<Record<string, unknown>>[];
  readonly permissionRules: readonly PermissionRule[];
  readonly captureEnabled: boolean;
  readonly captureMaxFiles: number;
  /** What an agent may read, write or run outside the workspace folders (see `common/boundary.ts`). */
  readonly outsideWorkspace: OutsideWorkspacePolicy;
  /** How long `initialize` and the session setup may take before the start is given up (0: no limit). */
  readonly startupTimeoutSeconds: number;
  /** Show each file an agent edits in an editor beside the chat (opt-in: it halves the chat's width). */
  readonly openEditedFiles: boolean;
  /** Where New Chat, Fork and Edit & Rerun put a new chat: the workspace, a new git worktree, or ask each time. */
  readonly newChatWorktree: 'workspace' | 'ask' | 'worktree';
  /** Restart an agent that exited unexpectedly and reattach its session (bounded: see common/recovery). */
  readonly restartOnCrash: boolean;
  /** A running turn silent this long gets a notice (0: never). */
  readonly stallNoticeSeconds: number;
  /** Call the user back (notification, a dot on the chat's title) when a chat they do not look at needs them. */
  readonly notifyWhenUnseen: boolean;
  /** Instructions added to the agent's own on each new session (unstable `systemPrompt`, `append`), '' for none. */
  readonly systemPrompt: string;
  /** The workspace folder (name or path) new chats work in; '' for the first. */
  readonly workingFolder: string;
  /** Whether chats also get the servers of VS Code's user-level mcp.json: asked once ('ask'), then the answer. */
  readonly useVSCodeMcpServers: 'ask' | 'yes' | 'no';
}

/** Reads one raw value per key (VS Code's `WorkspaceConfiguration.get`, or a plain object in tests). */
export type RawSettings = (key: string) => unknown;

/**
 * Settings that decide what an agent may do or what runs. A workspace must not set them: an agent can
 * write the workspace's `.vscode/settings.json`, and a cloned repository is not the user's choice. They
 * are `machine`-scoped in package.json and read here from the user's (or remote machine's) settings only.
 */
export const USER_ONLY_SETTINGS: readonly string[] = ['agents', 'mcpServers', 'permissionRules', 'outsideWorkspace', 'agentRegistry', 'systemPrompt', 'useVSCodeMcpServers'];

/** The levels of one setting (VS Code's `WorkspaceConfiguration.inspect`). */
export interface InspectedSetting {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * Raw values with USER_ONLY_SETTINGS taken from the user's settings (else the default); a workspace's value
 * for one of them is ignored and reported in `ignored`.
 */
export function userScopedSettings(get: RawSettings, inspect: (key: string) => InspectedSetting | undefined, ignored: (key: string) => void): RawSettings {
  return (key) => {
    if (!USER_ONLY_SETTINGS.includes(key)) return get(key);
    const levels = inspect(key);
    if (levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined) ignored(key);
    return levels?.globalValue ?? levels?.defaultValue;
  };
}

/** Parses every setting; a bad value falls back to its default and adds a human-readable problem. */
export function parseSettings(get: RawSettings): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const list = <T>(key: string, schema: z.ZodType<T>): T[] => {
    const raw = get(key);
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) {
      problems.push(`acpChat.${key} must be an array; ignored`);
      return [];
    }
    const out: T[] = [];
    raw.forEach((item, i) => {
      const r = schema.safeParse(item);
      if (r.success) out.push(r.data);
      else problems.push(`acpChat.${key}[${i}] ignored: ${issueText(r.error, true)}`);
    });
    return out;
  };
  const scalar = <T>(key: string, schema: z.ZodType<T>, fallback: T): T => {
    const raw = get(key);
    if (raw === undefined) return fallback;
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    problems.push(`acpChat.${key} has an invalid value (${JSON.stringify(raw)}); using ${JSON.stringify(fallback)}`);
    return fallback;
  };

  const agents = list('agents', zAgentConfig);
  const seen = new Set<string>([DEMO_AGENT_ID]);
  const unique = agents.filter((a) => {
    if (seen.has(a.id)) {
      problems.push(`acpChat.agents: duplicate or reserved id '${a.id}' ignored`);
      return false;
    }
    seen.add(a.id);
    return true;
  });
  const permissionRules = list('permissionRules', zPermissionRule).filter((r) => {
    if (r.titlePattern === undefined) return true;
    try {
      new RegExp(r.titlePattern);
      return true;
    } catch {
      problems.push(`acpChat.permissionRules: invalid titlePattern ${JSON.stringify(r.titlePattern)} ignored`);
      return false;
    }
  });
  return {
    settings: {
      agents: unique,
      defaultAgent: scalar('defaultAgent', z.string().min(1), DEMO_AGENT_ID),
      protocolVersion: scalar('protocolVersion', z.union([z.literal(1), z.literal(2)]), 1),
      openOnStartup: scalar('openOnStartup', z.boolean(), false),
      mcpServers: list('mcpServers', z.record(z.string(), z.unknown())),
      permissionRules,
      captureEnabled: scalar('capture.enabled', z.boolean(), true),
      captureMaxFiles: scalar('capture.maxFiles', z.number().int().min(1).max(1000), 20),
      outsideWorkspace: scalar('outsideWorkspace', z.enum(OUTSIDE_WORKSPACE_POLICIES), 'ask'),
      startupTimeoutSeconds: scalar('startupTimeoutSeconds', z.number().min(0).max(3600), 60),
      openEditedFiles: scalar('openEditedFiles', z.boolean(), false),
      newChatWorktree: scalar('newChatWorktree', z.enum(['workspace', 'ask', 'worktree']), 'workspace'),
      restartOnCrash: scalar('restartOnCrash', z.boolean(), true),
      stallNoticeSeconds: scalar('stallNoticeSeconds', z.number().min(0).max(86_400), 90),
      notifyWhenUnseen: scalar('notifyWhenUnseen', z.boolean(), true),
      systemPrompt: scalar('systemPrompt', z.string().max(20_000), ''),
      workingFolder: scalar('workingFolder', z.string(), ''),
      useVSCodeMcpServers: scalar('useVSCodeMcpServers', z.enum(['ask', 'yes', 'no']), 'ask'),
    },
    problems,
  };
}

/** The built-in demo agent: the bundled dist/demo-agent.js run by the Node that runs the extension host. */
export function demoAgent(nodePath: string, demoAgentScript: string): AgentConfig {
  // In desktop VS Code the extension host's executable is Electron; ELECTRON_RUN_AS_NODE makes it plain Node.
  return { id: DEMO_AGENT_ID, name: 'Demo agent', command: nodePath, args: [demoAgentScript], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** The demo agent first, then the configured ones. */
export function allAgents(settings: Settings, demo: AgentConfig): AgentConfig[] {
  return [demo, ...settings.agents];
}

export function findAgent(agents: readonly AgentConfig[], id: string): AgentConfig | undefined {
  return agents.find((a) => a.id === id);
}

/**
 * The agent a new chat starts with: the one the user last picked or focused while the settings still name
 * it, else the default (a chat of an agent since removed from the settings must not make every New Chat fail).
 */
export function newChatAgentId(agents: readonly AgentConfig[], picked: string, defaultAgent: string): string {
  return findAgent(agents, picked) ? picked : defaultAgent;
}
