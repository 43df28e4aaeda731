/**
 * Argument parsing shared by the CLI commands: node's `util.parseArgs` (strict: unknown options and
 * missing values are usage errors), with everything after the first `--` kept verbatim for the agent, so
 * `run --prompt hi -- AGENT --help` passes `--help` to the agent instead of printing our usage.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorText } from '../../common/util/errors';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Split {
  /** The command's own arguments (before `--`). */
  readonly own: readonly string[];
  /** What follows the first `--`, or undefined when there is none. */
  readonly rest: readonly string[] | undefined;
}

export function splitAtDashDash(args: readonly string[]): Split {
  const dd = args.indexOf('--');
  return dd < 0 ? { own: args, rest: undefined } : { own: args.slice(0, dd), rest: args.slice(dd + 1) };
}

/** True when the command's own arguments (not the agent's) ask for help. */
export function wantsHelp(args: readonly string[]): boolean {
  const { own } = splitAtDashDash(args);
  return own.includes('-h') || own.includes('--help');
}

/** `util.parseArgs` with its TypeError turned into the one-line message a usage error prints. */
export function parse<T extends Options>(args: readonly string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (e) {
    return errorText(e);
  }
}

/**
 * The agent's command line means what it says where the user typed it: a relative path in it (the command,
 * or an argument with a `/` or a leading `.` that names an existing file there) is made absolute before
 * the agent is started in another working directory (`--cwd`). Other arguments are passed as they are.
 */
export function resolveAgentCommand(agent: readonly string[], from: string): string[] {
  return agent.map((a, i) => {
    if (path.isAbsolute(a) || !(a.includes('/') || a.startsWith('.'))) return a;
    const abs = path.resolve(from, a);
    return i === 0 || existsSync(abs) ? abs : a;
  });
}
