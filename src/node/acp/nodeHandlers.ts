/**
 * Plain-Node defaults for the client handlers (used by `cli run`): fs via node:fs, terminals via
 * NodeTerminalHost, permissions by a fixed policy. Options are chosen by `kind`, never by id —
 * every agent names its options differently.
 */
import path from 'node:path';
import type { Access } from '../../common/boundary';
import { insideAny, pathStyle, type PathStyle } from '../../common/pathBoundary';
import { ErrorCodes } from '../../common/protocol/methods';
import type { PermissionOption, ReadTextFileParams, RequestPermissionParams, RequestPermissionResult } from '../../common/protocol/requests';
import { boundedRead, boundedWrite, CONFIG_FILE, HARD_LINK, OUTSIDE, type FileBoundary } from '../fileRequests';
import { boundaryRefusal, realPathOf, realRoots } from '../realPath';
import { rpcError } from '../transport/connection';

export type ApprovePolicy = 'all' | 'none';

/** Pick an option for the policy: all -> allow_once, else allow_always; none -> reject_once, else reject_always. */
function chooseOption(options: readonly PermissionOption[], policy: ApprovePolicy): PermissionOption | undefined {
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

/**
 * Decides whether a path (or a terminal's directory) may be used: resolves to the path to use, or throws
 * a JSON-RPC error that says why not.
 */
export type PathGate = (access: Access, target: string) => Promise<string>;

/**
 * The CLI's workspace boundary: only real paths (`..` and symlinks resolved) inside `root`, unless
 * `allowOutside`. What is used is the real path, so the directory checked is the directory used.
 * Files go through `cwdFiles`, which also counts hard links and VS Code's and git's configuration as outside.
 */
export function cwdGate(root: string, allowOutside: boolean, onRefused?: (message: string) => void): PathGate {
  const files = cwdFiles(root, { outside: allowOutside, configWrites: false }, onRefused);
  return async (access, target) => {
    if (!path.isAbsolute(target)) throw rpcError(ErrorCodes.invalidParams, `path must be absolute: ${target}`);
    if (allowOutside) return target;
    const real = await realPathOf(target);
    if (!insideAny(await files.roots(), real, files.style)) refuse(access, target, real, 'outside the working directory', root, onRefused);
    return real;
  };
}

function refuse(access: Access, target: string, real: string, why: string, root: string, onRefused?: (message: string) => void, flag = '--allow-outside-cwd'): never {
  const what = { read: 'reading', write: 'writing', terminal: 'a terminal in' }[access];
  const message = `refused ${what} ${real}: ${why} (the working directory is ${root}; the user can allow it with ${flag})`;
  onRefused?.(message);
  throw boundaryRefusal(message, target, real);
}

/** What the user allowed the CLI's agent beyond `--cwd`. */
export interface CwdAllowance {
  /** `--allow-outside-cwd`: files anywhere, hard links (whose other names may be anywhere) included. */
  readonly outside: boolean;
  /** `--allow-config-writes`: writing what configures VS Code, git or this extension, which `outside` does not allow. */
  readonly configWrites: boolean;
}

/** The CLI's file boundary: inside `root` only, unless allowed. */
export function cwdFiles(root: string, allow: CwdAllowance, onRefused?: (message: string) => void, style: PathStyle = pathStyle(process.platform)): FileBoundary {
  return {
    style,
    roots: () => realRoots([root]),
    judge: async (access, t, why) => {
      if (why === CONFIG_FILE) {
        if (!allow.configWrites) refuse(access, t.requested, t.real, why, root, onRefused, '--allow-config-writes');
        if (t.linked && !allow.outside) refuse(access, t.requested, t.real, HARD_LINK, root, onRefused);
        return;
      }
      if (!allow.outside) refuse(access, t.requested, t.real, why === OUTSIDE ? 'outside the working directory' : why, root, onRefused);
    },
  };
}

/** Without a boundary: any absolute path (still only regular files, read and written safely). */
const anywhere: FileBoundary = { style: pathStyle(process.platform), roots: async () => [], judge: async () => undefined };

export async function nodeReadTextFile(p: ReadTextFileParams, files: FileBoundary = anywhere): Promise<{ content: string }> {
  return { content: await boundedRead(p, files) };
}

export async function nodeWriteTextFile(p: { path: string; content: string }, files: FileBoundary = anywhere): Promise<void> {
  await boundedWrite(p, files);
}
