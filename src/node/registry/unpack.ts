/**
 * Unpacks a downloaded agent archive (.zip with yauzl, .tar.gz with tar-stream) into a folder. The archive
 * is untrusted: no entry may land outside the folder (an absolute name, a `..` segment, a drive letter, or
 * a link that points out), and such an archive is refused as a whole rather than partly unpacked.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';
import type { ArchiveKind } from '../../common/agents/registry';

export class UnsafeArchiveError extends Error {}

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
  return unpackTarGz(file, dest);
}

async function unpackZip(file: string, dest: string): Promise<void> {
  // yauzl refuses absolute and `..` names itself; entryPath checks again so the guarantee is ours.
  const zip = await yauzl.openPromise(file, { strictFileNames: false, validateEntrySizes: true });
  try {
    for await (const entry of zip.eachEntry()) {
      const target = entryPath(dest, entry.fileName);
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

async function unpackTarGz(file: string, dest: string): Promise<void> {
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    writeTarEntry(dest, header, stream).then(
      () => next(),
      (e: unknown) => {
        stream.resume();
        next(e);
      },
    );
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
}

async function writeTarEntry(dest: string, header: tar.Headers, stream: NodeJS.ReadableStream): Promise<void> {
  const target = entryPath(dest, header.name);
  switch (header.type ?? 'file') {
    case 'directory':
      await mkdir(target, { recursive: true });
      stream.resume();
      return;
    case 'file':
    case 'contiguous-file':
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(stream, createWriteStream(target, { mode: (header.mode ?? 0o644) & 0o777 }));
      return;
    case 'symlink': {
      // A link is checked where it points, relative to its own folder, so it cannot lead a later entry out.
      const to = header.linkname ?? '';
      if (path.isAbsolute(to) || to.startsWith('/')) throw new UnsafeArchiveError(`archive link '${header.name}' points to an absolute path`);
      entryPath(dest, path.posix.join(path.posix.dirname(header.name.replace(/\\/g, '/')), to.replace(/\\/g, '/')));
      await mkdir(path.dirname(target), { recursive: true });
      await symlink(to, target);
      stream.resume();
      return;
    }
    case 'link':
      await mkdir(path.dirname(target), { recursive: true });
      await link(entryPath(dest, header.linkname ?? ''), target);
      stream.resume();
      return;
    default:
      // Devices and fifos have no place in an agent's files.
      stream.resume();
  }
}
