/**
 * What the demo agent was told when a session was opened: the folders beside `cwd`
 * (`additionalDirectories`, stable v1), the client's system prompt (unstable `systemPrompt`) and the MCP
 * servers. It advertises both capabilities, refuses a relative directory as the schema asks, and says what it
 * got when prompted `/setup`, so tests can check the wire through the agent's own words.
 */
import { ErrorCodes } from '../../common/protocol/methods';
import { rpcError } from '../transport/connection';

export interface SessionSetup {
  readonly additionalDirectories: readonly string[];
  readonly systemPrompt: string | null;
  readonly mcpServers: readonly string[];
}

/** The session capabilities this file serves. */
export const SETUP_CAPABILITIES = { additionalDirectories: {}, systemPrompt: {} } as const;

interface OpenParams {
  readonly additionalDirectories?: readonly string[] | null | undefined;
  readonly systemPrompt?: unknown;
  readonly mcpServers?: readonly { readonly name: string }[] | null | undefined;
}

/** The setup a session/new, load or resume carries; a relative directory is refused (invalid params). */
export function setupOf(p: OpenParams): SessionSetup {
  const dirs = p.additionalDirectories ?? [];
  const relative = dirs.find((d) => !(d.startsWith('/') || /^[A-Za-z]:[\\/]/.test(d) || d.startsWith('\\\\')));
  if (relative !== undefined) throw rpcError(ErrorCodes.invalidParams, `additionalDirectories must be absolute paths: ${JSON.stringify(relative)}`);
  return { additionalDirectories: [...dirs], systemPrompt: systemPromptText(p.systemPrompt), mcpServers: (p.mcpServers ?? []).map((m) => m.name) };
}

function systemPromptText(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || !('content' in raw) || !Array.isArray(raw.content)) return null;
  if ('mode' in raw && raw.mode !== 'append') throw rpcError(ErrorCodes.invalidParams, `systemPrompt mode ${JSON.stringify(raw.mode)} is not supported`);
  const parts: unknown[] = raw.content;
  return parts.map((b) => (typeof b === 'object' && b !== null && 'text' in b && typeof b.text === 'string' ? b.text : '')).join('');
}

/** The `/setup` answer: each item on its own line, in code spans (paths are data). */
export function setupText(cwd: string, setup: SessionSetup | undefined): string {
  const s = setup ?? { additionalDirectories: [], systemPrompt: null, mcpServers: [] };
  const list = (items: readonly string[]) => (items.length ? items.map((i) => `\n- \`${i}\``).join('') : ' (none)');
  return [
    `Working directory: \`${cwd}\``,
    `Additional directories:${list(s.additionalDirectories)}`,
    `System prompt: ${s.systemPrompt === null ? '(none)' : `\`${s.systemPrompt}\``}`,
    `MCP servers:${list(s.mcpServers)}`,
  ].join('\n\n');
}
