/**
 * Unpacks a downloaded agent archive (.zip with yauzl, .tar.gz with Node's gunzip, .tar.bz2 with unbzip2-stream,
 * the tar of both read by tarReader.ts) into a folder. The archive
 * is untrusted: no entry may land outside the folder (an absolute name, a `..` segment, a drive letter, or
 * a link that points out), and such an archive is refused as a whole rather than partly unpacked.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import unbzip2 from 'unbzip2-stream';
import * as yauzl from 'yauzl';
import type { ArchiveKind } from '../../common/agents/registry';
import { tarEntries, type TarEntry } from './tarReader';

export class UnsafeArchiveError extends Error {}

/** What an agent's files may add up to once unpacked: a bound for archives that expand without end. */
const MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * Where an archive entry named `name` goes under `root`, or an error when it would go anywhere else.
 * Both separators count: a Windows archive's `..\x` is as much an escape as `../x`.
 */
export function entryPath(root: string, name: string): string {
  const n = name.replace(/\\/g, '/');
  if (n === '' || n.startsWith('/') || /^[a-z]:/i.test(n) || n.split('/').includes('..') || n.includes('\0')) {
    throw new UnsafeArchiveError(`archive entry '${name}' would be written outside the install folder`);
  }
  const base = path.resolve(root);
  const target = path.resolve(base, n);
  if (target !== base && !target.startsWith(base + path.sep)) throw new UnsafeArchiveError(`archive entry '${name}' would be written outside the install folder`);
  return target;
}

/** Unpacks `file` into `dest` (which exists and is empty); a raw executable is copied as `rawName`. */
export async function unpackArchive(kind: Exclude<ArchiveKind, 'unsupported'>, file: string, dest: string, rawName: string): Promise<void> {
  if (kind === 'raw') return copyFile(file, entryPath(dest, rawName));
  if (kind === 'zip') return unpackZip(file, dest);
  return unpackTar(file, dest, kind === 'tar.gz' ? createGunzip() : unbzip2());
}

async function unpackZip(file: string, dest: string): Promise<void> {
  // yauzl refuses absolute and `..` names itself; entryPath checks again so the guarantee is ours.
  const zip = await yauzl.openPromise(file, { strictFileNames: false, validateEntrySizes: true });
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const target = entryPath(dest, entry.fileName);
      // validateEntrySizes holds each entry to its declared size, so the sum of those is the bound.
      total += entry.uncompressedSize;
      if (total > MAX_UNPACKED_BYTES) throw new UnsafeArchiveError(`the archive unpacks to more than ${MAX_UNPACKED_BYTES} bytes`);
      if (entry.fileName.endsWith('/')) {
        await mkdir(target, { recursive: true });
        continue;
      }
      await mkdir(path.dirname(target), { recursive: true });
      // Unix-made zips keep the mode in the high half of the external attributes.
      const unixMode = entry.versionMadeBy >> 8 === 3 ? (entry.externalFileAttributes >>> 16) & 0o777 : 0;
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { mode: unixMode || 0o644 }));
    }
  } finally {
    zip.close();
  }
}

async function unpackTar(file: string, dest: string, decompress: NodeJS.ReadWriteStream): Promise<void> {
  // Decompressed to a file beside the archive, then read by offset: no archive is ever held in memory.
  const tarFile = `${file}.tar`;
  try {
    let total = 0;
    const bound = new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        done(total > MAX_UNPACKED_BYTES ? new UnsafeArchiveError(`the archive unpacks to more than ${MAX_UNPACKED_BYTES} bytes`) : null, chunk);
      },
    });
    await pipeline(createReadStream(file), decompress, bound, createWriteStream(tarFile));
    for await (const entry of tarEntries(tarFile)) await writeTarEntry(dest, tarFile, entry);
  } finally {
    await rm(tarFile, { force: true });
  }
}

async function writeTarEntry(dest: string, tarFile: string, e: TarEntry): Promise<void> {
  const target = entryPath(dest, e.name);
  switch (e.type) {
    case 'directory':
      await mkdir(target, { recursive: true });
      return;
    case 'file':
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(
        e.size > 0 ? createReadStream(tarFile, { start: e.offset, end: e.offset + e.size - 1 }) : Readable.from([]),
        createWriteStream(target, { mode: e.mode & 0o777 || 0o644 }),
      );
      return;
    case 'symlink': {
      // A link is checked where it points, relative to its own folder, so it cannot lead a later entry out.
      const to = e.linkname;
      if (path.isAbsolute(to) || to.startsWith('/')) throw new UnsafeArchiveError(`archive link '${e.name}' points to an absolute path`);
      entryPath(dest, path.posix.join(path.posix.dirname(e.name.replace(/\\/g, '/')), to.replace(/\\/g, '/')));
      await mkdir(path.dirname(target), { recursive: true });
      await symlink(to, target);
      return;
    }
    case 'link':
      await mkdir(path.dirname(target), { recursive: true });
      await link(entryPath(dest, e.linkname), target);
      return;
    case 'other':
      // Devices and fifos have no place in an agent's files.
      return;
  }
}
