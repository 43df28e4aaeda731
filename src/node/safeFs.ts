/**
 * Agent file access on disk, shared by the CLI and the extension: the file that is checked is the file
 * that is used. A path is judged by its real path (`inspectTarget`); the file is then opened without
 * following a symlink at the last component, and the open handle is proved to be the file at that same
 * real path (its device and inode match, and the real path still resolves to itself), so a folder flipped
 * to a symlink between the check and the open is caught. Only regular files are read or written (a FIFO
 * or device would block Node's file threads), reads stream just the lines asked for and are capped, text
 * must be UTF-8, and writes go to a temporary file in the same folder that is renamed over the target:
 * atomic, never interleaved, and a hard link's other names are never written through.
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '../common/protocol/methods';
import { LineWindow } from '../common/text';
import { realPathOf } from './realPath';
import { rpcError } from './transport/connection';

/** The most text one `fs/read_text_file` returns; more must be read in pages with `line` and `limit`. */
const MAX_READ_CHARS = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
// Not defined on Windows, where opening does not follow a final symlink the same way; 0 adds nothing there.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** A file an agent asked for, as judged: where it really is, and what it was when judged. */
export interface FileTarget {
  readonly requested: string;
  readonly real: string;
  /** Device and inode when the file existed; undefined for a file to be created. */
  readonly id?: { readonly dev: bigint; readonly ino: bigint };
  /** More than one name (a hard link): its other names may be outside, so it counts as outside. */
  readonly linked: boolean;
  /** Whether folders are held through `/proc/self/fd` (see ANCHORED_HERE); injected to test the other way here. */
  readonly anchored: boolean;
}

function refused(reason: string, message: string, target: string): ResponseError<unknown> {
  return rpcError(ErrorCodes.invalidParams, message, { reason, path: target });
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** A path ending in a separator names a folder: `/` everywhere, `\\` too on Windows. */
export function namesFolder(target: string, windows: boolean): boolean {
  return target.endsWith('/') || (windows && target.endsWith('\\'));
}

/**
 * Resolves an agent's path for a read or write: refuses relative paths, directory paths (a trailing
 * separator included) and anything but a regular file.
 */
export async function inspectTarget(target: string, anchored = ANCHORED_HERE): Promise<FileTarget> {
  if (!path.isAbsolute(target)) throw refused('not_absolute', `path must be absolute: ${target}`, target);
  if (namesFolder(target, path === path.win32)) throw refused('directory', `refused: ${target} names a directory, not a file`, target);
  const real = await realPathOf(target);
  const st = await lstat(real, { bigint: true }).catch((e: unknown) => {
    // ENOTDIR: a file on the way (`f.txt/x`); refused when its folder is opened.
    if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return undefined;
    throw e;
  });
  // A missing file is reported when it is opened, after the boundary judged it: whether a file exists
  // outside the workspace is not told before the user allowed looking there.
  if (!st) return { requested: target, real, linked: false, anchored };
  if (st.isDirectory()) throw refused('directory', `refused: ${target} is a directory, not a file`, target);
  if (!st.isFile()) throw refused('not_regular_file', `refused: ${target} is not a regular file (a FIFO, socket or device); only regular files are read or written`, target);
  return { requested: target, real, id: { dev: st.dev, ino: st.ino }, linked: st.nlink > 1n, anchored };
}

/** Resolves the same request again and refuses when it no longer names the judged file (after a consent dialog, say). */
export async function recheckTarget(t: FileTarget): Promise<FileTarget> {
  const again = await inspectTarget(t.requested, t.anchored);
  if (again.real !== t.real || again.id?.dev !== t.id?.dev || again.id?.ino !== t.id?.ino) throw changed(t, 'it now resolves elsewhere');
  if (again.linked && !t.linked) throw changed(t, 'it gained another name');
  return t;
}

function changed(t: FileTarget, what: string): ResponseError<unknown> {
  return refused('path_changed', `refused: ${t.requested} changed while it was being opened (${what}); try again`, t.requested);
}

/**
 * Linux names an open folder `/proc/self/fd/N`: a path through it reaches that very folder whatever is
 * renamed or relinked meanwhile, which makes every open, mkdir and rename below as exact as the *at()
 * system calls Node lacks. Elsewhere each handle is proved afterwards by its real path and inode.
 */
const ANCHORED_HERE = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A folder proved to be at its real path `dir`; `at(name)` names an entry of that very folder. */
interface Folder {
  at(name: string): string;
  close(): Promise<void>;
}

/**
 * Holds the folder `open` (a path through a held parent, or `dir` itself), proved to be the folder at the
 * real path `dir`. Without anchoring, nothing is held and each use is checked by `verifyHandle` instead.
 */
async function holdFolder(open_: string, dir: string, t: FileTarget): Promise<Folder> {
  if (!t.anchored) {
    if ((await realpath(dir)) !== dir) throw changed(t, 'a folder on its path was replaced');
    return { at: (name) => path.join(dir, name), close: async () => undefined };
  }
  const fh = await open(open_, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | O_NOFOLLOW).catch(async (e: unknown) => {
    if (code(e) === 'ELOOP') throw changed(t, 'a folder on its path was replaced');
    if (code(e) === 'ENOTDIR')
      throw (await lstat(dir).then(
        (s) => s.isFile(),
        () => false,
      ))
        ? refused('not_a_folder', `refused: ${dir} is a file, not a folder`, t.requested)
        : changed(t, 'a folder on its path was replaced');
    throw e;
  });
  try {
    const held = await fh.stat({ bigint: true });
    const there = await stat(dir, { bigint: true }).catch(() => undefined);
    if ((await realpath(dir).catch(() => undefined)) !== dir || there?.dev !== held.dev || there.ino !== held.ino) throw changed(t, 'a folder on its path was replaced');
  } catch (e) {
    await fh.close();
    throw e;
  }
  return { at: (name) => `/proc/self/fd/${fh.fd}/${name}`, close: () => fh.close() };
}

/** Proves an open handle is a regular file, and (unanchored) the file at `real`, which still resolves to itself. */
async function verifyHandle(fh: FileHandle, real: string, t: FileTarget): Promise<void> {
  const opened = await fh.stat({ bigint: true });
  if (!opened.isFile()) throw refused('not_regular_file', `refused: ${t.requested} is not a regular file`, t.requested);
  if (opened.nlink > 1n && !t.linked) throw changed(t, 'it gained another name');
  if (t.anchored) return;
  const now = await realpath(real).catch(() => undefined);
  if (now !== real) throw changed(t, 'a folder on its path was replaced');
  const there = await stat(real, { bigint: true });
  if (there.dev !== opened.dev || there.ino !== opened.ino) throw changed(t, 'a different file was opened');
}

/** Opens `name` in a held folder without following a symlink, proved to be the judged kind of file. */
async function openIn(folder: Folder, real: string, flags: number, t: FileTarget, mode?: number): Promise<FileHandle> {
  const fh = await open(folder.at(path.basename(real)), flags | O_NOFOLLOW, mode).catch((e: unknown) => {
    if (code(e) === 'ELOOP') throw changed(t, 'it became a symlink');
    if (code(e) === 'ENOENT') throw rpcError(ErrorCodes.resourceNotFound, `file not found: ${t.requested}`);
    throw e;
  });
  try {
    await verifyHandle(fh, real, t);
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** Reads `line`/`limit` of a judged file as strict UTF-8, streaming, at most MAX_READ_CHARS. */
export async function readChecked(t: FileTarget, line?: number | null, limit?: number | null): Promise<string> {
  const folder = await holdFolder(path.dirname(t.real), path.dirname(t.real), t).catch((e: unknown) => {
    throw code(e) === 'ENOENT' ? rpcError(ErrorCodes.resourceNotFound, `file not found: ${t.requested}`) : e;
  });
  let fh: FileHandle;
  try {
    // Non-blocking: should a FIFO take the file's place after the check, opening it does not wait for a writer.
    fh = await openIn(folder, t.real, constants.O_RDONLY | O_NONBLOCK, t);
  } finally {
    await folder.close();
  }
  try {
    await sameAsJudged(fh, t);
    return await readText(fh, t, line, limit);
  } finally {
    await fh.close();
  }
}

/** Refuses a handle that is not the file judged (when it existed then). */
async function sameAsJudged(fh: FileHandle, t: FileTarget): Promise<void> {
  if (!t.id) return;
  const s = await fh.stat({ bigint: true });
  if (s.dev !== t.id.dev || s.ino !== t.id.ino) throw changed(t, 'a different file was opened');
}

/**
 * `line`/`limit` of an open judged file as strict UTF-8, streaming from where the handle is, at most
 * MAX_READ_CHARS (no `line`/`limit`: all of it).
 */
export async function readText(fh: FileHandle, t: FileTarget, line?: number | null, limit?: number | null): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const window = new LineWindow(line, limit);
  const buf = Buffer.alloc(CHUNK_BYTES);
  try {
    while (!window.done) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK_BYTES, null);
      window.push(decoder.decode(buf.subarray(0, bytesRead), { stream: bytesRead > 0 }));
      if (window.length > MAX_READ_CHARS) {
        throw refused('too_large', `refused: reading ${t.requested} would return more than ${MAX_READ_CHARS} characters; read it in pages with line and limit`, t.requested);
      }
      if (bytesRead === 0) break;
    }
  } catch (e) {
    if (e instanceof TypeError) throw refused('not_utf8', `refused: ${t.requested} is not UTF-8 text; it is not read so that writing it back cannot corrupt it`, t.requested);
    throw e;
  }
  return window.text();
}

/** Holds the folder of a file to write, creating missing folders one level at a time inside held parents. */
async function makeFolders(dir: string, t: FileTarget): Promise<Folder> {
  try {
    return await holdFolder(dir, dir, t);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw e;
  }
  const parentDir = path.dirname(dir);
  if (parentDir === dir) throw rpcError(ErrorCodes.resourceNotFound, `no such drive or root: ${dir}`);
  const parent = await makeFolders(parentDir, t);
  try {
    await mkdir(parent.at(path.basename(dir))).catch((e: unknown) => {
      if (code(e) !== 'EEXIST') throw e;
    });
    return await holdFolder(parent.at(path.basename(dir)), dir, t);
  } finally {
    await parent.close();
  }
}

/**
 * What to write over a judged file, given the file as it is now: its open handle, proved to be the judged
 * file (null: there was no file), from which the caller may read what it needs (line endings, the text
 * before). Resolves to the text to write, or null to leave the file as it is.
 */
export type Content = string | ((existing: FileHandle | null) => Promise<string | null>);

/**
 * Writes a judged file: the content goes to a new file beside it (created exclusively, so nothing is
 * followed or shared) in the held folder, and is then renamed over the target in that same folder.
 * The file that is there is opened only through the held folder, and only to give it to `content`.
 * Resolves to whether the file was written.
 */
export async function writeChecked(t: FileTarget, content: Content): Promise<boolean> {
  const dir = path.dirname(t.real);
  const name = path.basename(t.real);
  const folder = await makeFolders(dir, t);
  try {
    let mode = 0o666;
    const now = await lstat(folder.at(name), { bigint: true }).catch(() => undefined);
    if (t.id) {
      if (!now || !now.isFile() || now.dev !== t.id.dev || now.ino !== t.id.ino) throw changed(t, 'a different file is there now');
      if (now.nlink > 1n && !t.linked) throw changed(t, 'it gained another name');
      mode = Number(now.mode & 0o777n);
    } else if (now) {
      throw changed(t, 'it was created meanwhile');
    }
    const text = typeof content === 'string' ? content : await contentFor(folder, t, content);
    if (text === null) return false;
    const tempName = `.${name}.${randomBytes(6).toString('hex')}.tmp`;
    const temp = path.join(dir, tempName);
    const fh = await openIn(folder, temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, t, mode);
    try {
      try {
        await fh.writeFile(text, 'utf8');
        await fh.datasync();
      } finally {
        await fh.close();
      }
      if (!t.anchored && (await realpath(dir)) !== dir) throw changed(t, 'a folder on its path was replaced');
      await rename(folder.at(tempName), folder.at(name));
    } catch (e) {
      await unlink(folder.at(tempName)).catch(() => undefined);
      throw e;
    }
    return true;
  } finally {
    await folder.close();
  }
}

/** Asks `content` what to write, showing it the judged file (opened in the held folder) or null. */
async function contentFor(folder: Folder, t: FileTarget, content: (existing: FileHandle | null) => Promise<string | null>): Promise<string | null> {
  if (!t.id) return content(null);
  const fh = await openIn(folder, t.real, constants.O_RDONLY | O_NONBLOCK, t);
  try {
    await sameAsJudged(fh, t);
    return await content(fh);
  } finally {
    await fh.close();
  }
}
