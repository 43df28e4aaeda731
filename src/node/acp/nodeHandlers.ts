/**
 * Plain-Node defaults for the client handlers (used by `cli run`): fs via node:fs, terminals via
 * NodeTerminalHost, permissions by a fixed policy. Options are chosen by `kind`, never by id —
 * every agent names its options differently.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { insideAny, type Access } from '../../common/boundary';
import { ErrorCodes } from '../../common/protocol/methods';
import type { PermissionOption, ReadTextFileParams, RequestPermissionParams, RequestPermissionResult } from '../../common/protocol/requests';
import { boundaryRefusal, realPathOf, realRoots } from '../realPath';
import { rpcError } from '../transport/connection';
import { keepLineEndings } from './lineEndings';

export type ApprovePolicy = 'all' | 'none';

/** Pick an option for the policy: all -> allow_once, else allow_always; none -> reject_once, else reject_always. */
export function chooseOption(options: readonly PermissionOption[], policy: ApprovePolicy): PermissionOption | undefined {
  const order = policy === 'all' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const o = options.find((x) => x.kind === kind);
    if (o) return o;
  }
  return undefined;
}

export function policyPermission(policy: ApprovePolicy, onDecision?: (p: RequestPermissionParams, chosen: PermissionOption | undefined) => void) {
  return async (p: RequestPermissionParams): Promise<RequestPermissionResult> => {
    const chosen = chooseOption(p.options, policy);
    onDecision?.(p, chosen);
    return chosen ? { outcome: { outcome: 'selected', optionId: chosen.optionId } } : { outcome: { outcome: 'cancelled' } };
  };
}

/** Apply ACP's 1-based `line` and `limit` to a text. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit === undefined || limit === null ? undefined : start + limit).join('\n');
}

/**
 * Decides whether a path (or a terminal's directory) may be used: resolves to the path to use, or throws
 * a JSON-RPC error that says why not.
 */
export type PathGate = (access: Access, target: string) => Promise<string>;

/**
 * The CLI's workspace boundary: only real paths (`..` and symlinks resolved) inside `root`, unless
 * `allowOutside`. What is used is the real path, so the file checked is the file touched.
 */
export function cwdGate(root: string, allowOutside: boolean, onRefused?: (message: string) => void): PathGate {
  return async (access, target) => {
    if (!path.isAbsolute(target)) throw rpcError(ErrorCodes.invalidParams, `path must be absolute: ${target}`);
    if (allowOutside) return target;
    const real = await realPathOf(target);
    if (insideAny(await realRoots([root]), real)) return real;
    const what = { read: 'reading', write: 'writing', terminal: 'a terminal in' }[access];
    const message = `refused ${what} ${real}: outside the working directory ${root} (the user can allow it with --allow-outside-cwd)`;
    onRefused?.(message);
    throw boundaryRefusal(message, target, real);
  };
}

/** Without a gate: any absolute path, as given. */
const anywhere: PathGate = async (_access, target) => {
  if (!path.isAbsolute(target)) throw rpcError(ErrorCodes.invalidParams, `path must be absolute: ${target}`);
  return target;
};

export async function nodeReadTextFile(p: ReadTextFileParams, gate: PathGate = anywhere): Promise<{ content: string }> {
  const file = await gate('read', p.path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw rpcError(ErrorCodes.resourceNotFound, `file not found: ${p.path}`);
    throw err;
  }
  return { content: sliceLines(text, p.line, p.limit) };
}

export async function nodeWriteTextFile(p: { path: string; content: string }, gate: PathGate = anywhere): Promise<void> {
  const file = await gate('write', p.path);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, await keepLineEndings(file, p.content), 'utf8');
}
