/**
 * Where a path really points, for the workspace boundary: `/ws/../.bashrc` and a symlink inside the
 * workspace that points out must both be judged by their target, not by their spelling.
 */
import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '../common/protocol/methods';
import { rpcError } from './transport/connection';

/** What resolving needs from the file system, injected so Windows' resolution is tested here. */
export interface RealPathFs {
  /** The OS's own resolution of an existing path. */
  readonly realpath: (p: string) => Promise<string>;
  readonly readlink: (p: string) => Promise<string>;
  readonly path: path.PlatformPath;
}

/**
 * This machine's. `fs/promises`' realpath is the native one (`fs.realpath.native`, libuv's
 * uv_fs_realpath): on Windows it opens the file and asks GetFinalPathNameByHandle, so 8.3 short names
 * (`C:\PROGRA~1`) come back long, junctions and symlinks resolved, and the case as on disk. The callback
 * `fs.realpath` walks the path in JavaScript and leaves short names as they are: a boundary check on
 * its result would compare `PROGRA~1` with `Program Files`.
 */
export const hostFs: RealPathFs = { realpath, readlink, path };

/** `\\?\C:\x` as `C:\x` and `\\?\UNC\srv\share` as `\\srv\share` (what GetFinalPathNameByHandle returns, unprefixed). */
function withoutLongPrefix(p: string, fs: RealPathFs): string {
  if (fs.path !== path.win32) return p;
  if (/^\\\\\?\\UNC\\/i.test(p)) return `\\\\${p.slice(8)}`;
  if (/^\\\\\?\\[A-Za-z]:(\\|$)/.test(p)) return p.slice(4);
  return p;
}

/**
 * The real path of an absolute path. The OS resolves symlinks and `..` (in that order on POSIX, as it
 * would when opening the file; Windows drops `..` first, by spelling); for a path that does not exist
 * yet, the nearest existing ancestor is resolved and the missing rest appended (it holds no links, since
 * it does not exist).
 */
export async function realPathOf(p: string, fs: RealPathFs = hostFs): Promise<string> {
  return resolveFrom(p, fs, 0);
}

async function resolveFrom(p: string, fs: RealPathFs, hops: number): Promise<string> {
  if (!fs.path.isAbsolute(p)) throw new Error(`not an absolute path: ${p}`);
  if (hops > 40) throw new Error(`too many levels of symbolic links: ${p}`);
  try {
    return withoutLongPrefix(await fs.realpath(p), fs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    const parent = fs.path.dirname(p);
    if (parent === p) throw e;
    const realParent = await resolveFrom(parent, fs, hops + 1);
    // A dangling symlink (or junction): writing it would create its target, so the target is what counts.
    const link = await fs.readlink(p).catch(() => undefined);
    if (link !== undefined) return resolveFrom(fs.path.resolve(realParent, withoutLongPrefix(link, fs)), fs, hops + 1);
    return fs.path.join(realParent, fs.path.basename(p));
  }
}

/** Real paths of the roots that exist (a deleted workspace folder protects nothing). */
export async function realRoots(roots: readonly string[], fs: RealPathFs = hostFs): Promise<string[]> {
  const out: string[] = [];
  for (const r of roots) {
    try {
      out.push(withoutLongPrefix(await fs.realpath(r), fs));
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
