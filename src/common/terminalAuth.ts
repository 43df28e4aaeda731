/**
 * What a terminal sign-in runs, decided before anything runs: the agent's configured command with the
 * method's `args` appended (or, for Zed's `_meta["terminal-auth"]` convention, the program the agent
 * names), with the method's `env` over the agent's. Everything from the agent is untrusted: it is run as a
 * program and an argument list, never through a shell, and what would run is shown to the user first
 * as `display` (quoted for reading only). A method that cannot be run faithfully is refused with a reason.
 */
import type { AgentConfig } from './config/settings';
import type { TerminalAuthMethod } from './protocol/sessionOps';

export interface TerminalAuthInvocation {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The method's own env (shown to the user; the agent's configured env is theirs already). */
  readonly methodEnv: Readonly<Record<string, string>>;
  /** The command line for the consent dialog, each word quoted when needed (display only, never executed). */
  readonly display: string;
  /** True when the program is not the agent's configured command (the agent named another program). */
  readonly otherProgram: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function terminalAuthInvocation(
  agent: Pick<AgentConfig, 'command' | 'args' | 'env'>,
  m: TerminalAuthMethod,
): { ok: true; invocation: TerminalAuthInvocation } | { ok: false; reason: string } {
  const command = m.command ?? agent.command;
  const args = m.command !== undefined ? [...m.args] : [...agent.args, ...m.args];
  for (const word of [command, ...args, ...Object.entries(m.env).flat()]) {
    // A NUL cannot be passed to a process: the program would get something other than what was shown.
    if (word.includes('\0')) return { ok: false, reason: 'its command line contains a NUL character' };
  }
  if (command.trim() === '') return { ok: false, reason: 'it names no program' };
  const bad = Object.keys(m.env).find((k) => !ENV_NAME.test(k));
  if (bad !== undefined) return { ok: false, reason: `it sets an environment variable with an invalid name (${JSON.stringify(bad)})` };
  const env = { ...agent.env, ...m.env };
  const display = [...Object.entries(m.env).map(([k, v]) => `${k}=${quote(v)}`), ...[command, ...args].map(quote)].join(' ');
  return { ok: true, invocation: { command, args, env, methodEnv: { ...m.env }, display, otherProgram: m.command !== undefined && m.command !== agent.command } };
}

/** POSIX-style single quoting, for reading only. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
