/** The tar reader: names past 100 characters (ustar prefix, pax, GNU long names), and broken archives. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { tarEntries } from '../../../src/node/registry/tarReader';
import { tarGz } from './fixtures';

const dir = mkdtempSync(path.join(tmpdir(), 'acp-tar-'));
let n = 0;
const write = (b: Buffer) => {
  const f = path.join(dir, `t${++n}.tar`);
  writeFileSync(f, b);
  return f;
};
const entries = async (f: string) => {
  const out = [];
  for await (const e of tarEntries(f)) out.push(e);
  return out;
};

/** One GNU-format header block (magic "ustar  "), checksum filled in. */
function gnuHeader(name: string, type: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 99), 0, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  h.write(type, 156, 'latin1');
  h.write('ustar  \0', 257, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}
const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);

describe('tar reader', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads long names and data offsets as written', async () => {
    const long = `${'deep/'.repeat(30)}agent.js`;
    const f = write(
      gunzipSync(
        await tarGz([
          { name: 'a.txt', content: 'hello' },
          { name: long, content: 'x'.repeat(700) },
          { name: 'd/', type: 'directory', mode: 0o755 },
        ]),
      ),
    );
    const es = await entries(f);
    assert.deepEqual(
      es.map((e) => [e.name, e.type, e.size]),
      [
        ['a.txt', 'file', 5],
        [long, 'file', 700],
        ['d/', 'directory', 0],
      ],
    );
    assert.equal(es[2]!.mode, 0o755);
  });

  it('reads GNU long names (type L)', async () => {
    const long = `${'gnu/'.repeat(40)}agent`;
    const name = Buffer.from(`${long}\0`);
    const data = Buffer.from('#!/bin/sh\n');
    const tar = Buffer.concat([gnuHeader('././@LongLink', 'L', name.length), pad(name), gnuHeader(long.slice(0, 99), '0', data.length), pad(data), Buffer.alloc(1024)]);
    const es = await entries(write(tar));
    assert.deepEqual(
      es.map((e) => [e.name, e.type, e.size]),
      [[long, 'file', data.length]],
    );
  });

  it('refuses what is not a tar, and a truncated one', async () => {
    await assert.rejects(entries(write(Buffer.from('<html>not a tar</html>'.padEnd(1024, ' ')))), /bad header checksum/);
    const whole = gunzipSync(await tarGz([{ name: 'a.txt', content: 'y'.repeat(2000) }]));
    await assert.rejects(entries(write(whole.subarray(0, 1024))), /truncated/);
  });
});
