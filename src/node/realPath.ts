/**
 * Where a path really points, for the workspace boundary: `/ws/../.bashrc` and a symlink inside the
 * workspace that points out must both be judged by their target, not by their spelling.
 */
import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '../common/protocol/methods';
import { rpcError } from './transport/connection';

/**
 * The real path of an absolute path. The OS resolves symlinks and `..` (in that order, as it would when
 * opening the file); for a path that does not exist yet, the nearest existing ancestor is resolved and
 * the missing rest appended (it holds no symlinks, since it does not exist).
 */
export async function realPathOf(p: string, hops = 0): Promise<string> {
  if (!path.isAbsolute(p)) throw new Error(`not an absolute path: ${p}`);
  if (hops > 40) throw new Error(`too many levels of symbolic links: ${p}`);
  try {
    return await realpath(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    const parent = path.dirname(p);
    if (parent === p) throw e;
    const realParent = await realPathOf(parent, hops + 1);
    // A dangling symlink: writing it would create its target, so the target is what counts.
    const link = await readlink(p).catch(() => undefined);
    if (link !== undefined) return realPathOf(path.resolve(realParent, link), hops + 1);
    return path.join(realParent, path.basename(p));
  }
}

/** Real paths of the roots that exist (a deleted workspace folder protects nothing). */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    try {
      out.push(await realpath(r));
    } catch {
      // Skipped: nothing can be inside a folder that does not exist.
    }
  }
  return out;
}

/** The JSON-RPC error for a request the boundary refused: says why, and which path it resolved to. */
export function boundaryRefusal(message: string, requested: string, real: string): ResponseError<unknown> {
  return rpcError(ErrorCodes.invalidParams, message, { reason: 'outside_boundary', path: requested, realPath: real });
}
