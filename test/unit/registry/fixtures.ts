/**
 * Registry fixtures made in the test: a local HTTP server on 127.0.0.1 with canned responses, and small
 * .tar.gz, .tar.bz2 and .zip archives built from a list of entries (names unchecked, so a test can make a bad one).
 * bzip2 archives are made by the `bzip2` program (Node has no bzip2 encoder).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface FixtureServer {
  readonly base: string;
  /** Requests per path, to tell a cache hit from a fetch. */
  readonly hits: Map<string, number>;
  route(path: string, route: Route): void;
  close(): Promise<void>;
}

export async function fixtureServer(): Promise<FixtureServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const r = routes.get(p);
    if (r) r(req, res);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    route: (path, route) => void routes.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const bytes =
  (body: Buffer | string, type = 'application/octet-stream'): Route =>
  (_req, res) => {
    const b = Buffer.from(body);
    res.writeHead(200, { 'content-type': type, 'content-length': b.length }).end(b);
  };

export const json = (value: unknown): Route => bytes(JSON.stringify(value), 'application/json');

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export interface FixtureEntry {
  readonly name: string;
  readonly content?: string;
  readonly mode?: number;
  readonly type?: 'file' | 'directory' | 'symlink';
  readonly linkname?: string;
}

export async function tarGz(entries: readonly FixtureEntry[]): Promise<Buffer> {
  return gzipSync(await tarOf(entries));
}

export async function tarBz2(entries: readonly FixtureEntry[]): Promise<Buffer> {
  return execFileSync('bzip2', ['-c'], { input: await tarOf(entries), maxBuffer: 1 << 30 });
}

async function tarOf(entries: readonly FixtureEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const e of entries) {
    pack.entry(
      { name: e.name, mode: e.mode ?? 0o644, type: e.type ?? 'file', ...(e.linkname ? { linkname: e.linkname } : {}) },
      e.type === 'file' || !e.type ? (e.content ?? '') : undefined,
    );
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A zip of stored (uncompressed) entries, made by Unix so each entry's mode is kept. */
export function zip(entries: readonly FixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from(e.content ?? '');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((((e.type === 'directory' ? 0o040000 : 0o100000) | (e.mode ?? 0o644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
