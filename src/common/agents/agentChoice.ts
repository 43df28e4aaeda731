/**
 * What the two agent pickers say (issue 38 item 7). Select Agent: each configured agent by name and the
 * program it runs (not its whole command line, which can be hundreds of characters of paths and flags),
 * then "Add Agent…". Add Agent: why the registry was not fetched, in words a user can act on (not Node's
 * "fetch failed"), and a short placeholder; the list's origin goes in the title, never in a separator
 * over the first agent (VS Code draws a separator's label on the first item's row, over its label).
 */
import { DEMO_AGENT_ID, type AgentConfig } from '../config/settings';
import { agentOrigin } from '../config/agentUrl';

/** A Select Agent row: an agent's id, or the Add Agent… entry. */
export interface AgentRow {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly id: string;
  readonly separator?: boolean;
}

/** The id of the row that runs Add Agent… (no agent id starts with a dollar sign). */
export const ADD_AGENT_ROW = '$addAgent';

/** The program of a command line, by name: `npx`, `gemini`, `claude-code-acp` (the package for npx/uvx/bunx). */
export function programName(a: Pick<AgentConfig, 'command' | 'args'>): string {
  const base = a.command.split(/[\\/]/).at(-1) ?? a.command;
  const runner = /^(npx|uvx|bunx|pnpx)(\.cmd|\.exe)?$/i.test(base);
  const pkg = runner ? a.args.find((x) => !x.startsWith('-')) : undefined;
  return pkg !== undefined ? `${base} ${pkg}` : base;
}

export function selectAgentRows(agents: readonly AgentConfig[], current: string): AgentRow[] {
  return [
    ...agents.map((a): AgentRow => ({
      label: a.name,
      description: a.id === current ? 'active' : '',
      // A remote agent shows where it runs (its origin, never a path, query or token); a local one its program.
      detail: a.id === DEMO_AGENT_ID ? 'built in: shows every feature without a real agent' : a.url !== undefined ? `at ${agentOrigin(a) ?? ''}` : `runs ${programName(a)}`,
      id: a.id,
    })),
    { label: '', id: '', separator: true },
    { label: 'Add Agent…', detail: 'from the ACP agent registry', id: ADD_AGENT_ROW },
  ];
}

/** Why a fetch failed, in words (Node's fetch says only "fetch failed"; the cause has the code). */
export function fetchFailureText(e: unknown): string {
  const cause = typeof e === 'object' && e !== null ? (e as { cause?: unknown }).cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const name = typeof e === 'object' && e !== null ? (e as { name?: unknown }).name : undefined;
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'the server did not answer in time';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no network connection (the server’s name could not be looked up)';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return 'the server refused the connection';
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code)) return 'the server’s certificate was not accepted';
  const message = e instanceof Error ? e.message : String(e);
  return message === 'fetch failed' ? 'no network connection, or the server did not answer' : message;
}

/** The Add Agent picker's placeholder: short enough to be read whole. */
export function addAgentPlaceholder(offline: boolean): string {
  return offline ? 'Offline: the built-in list. Choose an agent to add' : 'Choose an agent to add to acpChat.agents';
}

/**
 * A chat nobody wrote in yet (no entry in any of its sessions): choosing another agent there replaces it
 * with a chat of that agent in its place, instead of leaving an empty chat behind.
 */
export function isUnusedChat(sessions: readonly { readonly entries: readonly unknown[] }[]): boolean {
  return sessions.every((s) => s.entries.length === 0);
}
