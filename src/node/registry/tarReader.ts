/**
 * Reads the entries of an (uncompressed) tar file by offset: POSIX ustar with pax extended headers and
 * GNU long names, which is what GNU tar, bsdtar and the release tooling agent projects use produce. Only
 * headers are read into memory; a file's data is returned as an offset and size for the caller to copy.
 *
 * Written here rather than taken from a package: the tar packages bring a userland copy of Node's streams
 * (about 100 KB in the bundle) for a format whose reading fits in this file.
 */
import { open } from 'node:fs/promises';

export interface TarEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'link' | 'other';
  readonly mode: number;
  /** For `file`: where its data starts in the tar file, and its length. */
  readonly offset: number;
  readonly size: number;
  /** For `symlink` and `link`: the target as written in the archive. */
  readonly linkname: string;
}

const BLOCK = 512;
/** Extended headers hold names and a few numbers; more than this is not a header. */
const MAX_META_BYTES = 1024 * 1024;

export async function* tarEntries(file: string): AsyncGenerator<TarEntry> {
  const fh = await open(file, 'r');
  try {
    const total = (await fh.stat()).size;
    const header = Buffer.alloc(BLOCK);
    let pos = 0;
    // Set by a pax ('x') or GNU ('L', 'K') header for the one entry that follows it.
    let pending: { path?: string; linkpath?: string; size?: number } = {};
    for (;;) {
      const { bytesRead } = await fh.read(header, 0, BLOCK, pos);
      if (bytesRead === 0 && pos === total) return; // no end-of-archive blocks: tolerated, as tar does
      if (bytesRead < BLOCK) throw new Error('the tar archive is truncated');
      if (header.every((b) => b === 0)) return;
      if (!checksumOk(header)) throw new Error(`not a tar archive (bad header checksum at byte ${pos})`);
      const typeflag = String.fromCharCode(header[156] ?? 0);
      const size = pending.size ?? numeric(header.subarray(124, 136));
      const offset = pos + BLOCK;
      if (offset + size > total) throw new Error('the tar archive is truncated');
      pos = offset + Math.ceil(size / BLOCK) * BLOCK;

      if (typeflag === 'x' || typeflag === 'L' || typeflag === 'K') {
        if (size > MAX_META_BYTES) throw new Error(`a tar extended header of ${size} bytes is too large`);
        const data = Buffer.alloc(size);
        await fh.read(data, 0, size, offset);
        if (typeflag === 'x') pending = { ...pending, ...paxRecords(data) };
        else if (typeflag === 'L') pending = { ...pending, path: cString(data) };
        else pending = { ...pending, linkpath: cString(data) };
        continue;
      }
      if (typeflag === 'g') continue; // global pax defaults: nothing in them matters for unpacking

      // The prefix field is ustar's; GNU's "ustar  " header keeps other data there.
      const ustar = header.subarray(257, 263).toString('latin1') === 'ustar\0';
      const prefix = ustar ? cString(header.subarray(345, 500)) : '';
      const shortName = cString(header.subarray(0, 100));
      const name = pending.path ?? (prefix ? `${prefix}/${shortName}` : shortName);
      const linkname = pending.linkpath ?? cString(header.subarray(157, 257));
      pending = {};
      const type =
        typeflag === '0' || typeflag === '\0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'directory' : typeflag === '2' ? 'symlink' : typeflag === '1' ? 'link' : 'other';
      yield { name, type, mode: numeric(header.subarray(100, 108)), offset, size: type === 'file' ? size : 0, linkname };
    }
  } finally {
    await fh.close();
  }
}

/** The header's checksum: the sum of its bytes with the checksum field counted as spaces. */
function checksumOk(h: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] ?? 0);
  return sum === numeric(h.subarray(148, 156));
}

/** An octal field, or GNU's base-256 form (first byte's high bit set) for sizes past 8 GB. */
function numeric(field: Buffer): number {
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let n = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + (field[i] ?? 0);
    return n;
  }
  const text = field
    .toString('latin1')
    .replace(/[\0 ].*$/s, '')
    .trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function cString(b: Buffer): string {
  const end = b.indexOf(0);
  return b.subarray(0, end < 0 ? b.length : end).toString('utf8');
}

/** pax records: `<length> <key>=<value>\n`, the length counting the whole record. */
function paxRecords(data: Buffer): { path?: string; linkpath?: string; size?: number } {
  const out: { path?: string; linkpath?: string; size?: number } = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space < 0) break;
    const len = Number(data.subarray(i, space).toString('latin1'));
    if (!Number.isInteger(len) || len <= 0 || i + len > data.length) throw new Error('not a tar archive (bad pax header)');
    const record = data.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    const key = record.slice(0, eq);
    const value = record.slice(eq + 1);
    if (key === 'path') out.path = value;
    else if (key === 'linkpath') out.linkpath = value;
    else if (key === 'size' && /^\d+$/.test(value)) out.size = Number(value);
    i += len;
  }
  return out;
}
