/**
 * The boundary against a racing agent: random interleavings of fs requests with a folder flipping between
 * a directory and a symlink out of the workspace (in this process, between the requests' own awaits, and in
 * a separate process flipping as fast as it can), plus hard links appearing. No read may return what is
 * outside and no write may land outside, whatever the interleaving.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { link, rename, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { cwdFiles, nodeReadTextFile, nodeWriteTextFile } from '../../src/node/acp/nodeHandlers';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'boundary-race-')));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
mkdirSync(path.join(ws, 'd'), { recursive: true });
mkdirSync(path.join(outside, 'd'), { recursive: true });
writeFileSync(path.join(ws, 'd', 'f.txt'), 'inside\n');
writeFileSync(path.join(outside, 'd', 'f.txt'), 'SECRET-F\n');
writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n');
after(() => rmSync(base, { recursive: true, force: true }));

const files = cwdFiles(ws, { outside: false, configWrites: false });
const d = path.join(ws, 'd');
const saved = path.join(ws, 'd-saved');
const quiet = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    () => undefined,
  );

/** ws/d: directory -> symlink to outside/d, or back. Steps can fail when the other flipper got there first. */
async function flip(): Promise<void> {
  if (
    await rename(d, saved).then(
      () => true,
      () => false,
    )
  )
    await quiet(symlink(path.join(outside, 'd'), d));
  else {
    await quiet(unlink(d));
    await quiet(rename(saved, d));
  }
}

type Cmd = { kind: 'flip' } | { kind: 'hardlink' } | { kind: 'unlink' } | { kind: 'read' | 'write'; file: string; n: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.constant<Cmd>({ kind: 'flip' }),
  fc.record({ kind: fc.constantFrom<'read' | 'write'>('read', 'write'), file: fc.constantFrom('d/f.txt', 'd/new.txt', 'd/../d/f.txt', 'h.txt', 'd/sub/x.txt'), n: fc.nat(1000) }),
  fc.constantFrom<Cmd>({ kind: 'hardlink' }, { kind: 'unlink' }),
);

describe('the boundary under random interleavings of path flips and fs requests', () => {
  it('no read returns, and no write changes, anything outside the workspace', async () => {
    // A second process flips the folder as fast as it can, racing every await of every request.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');const [d,s,t]=process.argv.slice(1);for(;;){try{fs.renameSync(d,s);fs.symlinkSync(t,d)}catch{}try{fs.unlinkSync(d);fs.renameSync(s,d)}catch{}}`,
        d,
        saved,
        path.join(outside, 'd'),
      ],
      { stdio: 'ignore' },
    );
    let served = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(cmd, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (batches) => {
          // Each batch runs at once: the requests' awaits interleave with the flips and with each other.
          for (const batch of batches) {
            await Promise.all(
              batch.map(async (c) => {
                if (c.kind === 'flip') return flip();
                if (c.kind === 'hardlink') return quiet(link(path.join(outside, 'secret.txt'), path.join(ws, 'h.txt')));
                if (c.kind === 'unlink') return quiet(rm(path.join(ws, 'h.txt'), { force: true }));
                const p = path.join(ws, c.file);
                if (c.kind === 'read') {
                  const r = await nodeReadTextFile({ sessionId: 's', path: p }, files).catch(() => undefined);
                  if (r) served++;
                  assert.doesNotMatch(r?.content ?? '', /SECRET/, `read ${c.file} returned what is outside`);
                } else {
                  await quiet(nodeWriteTextFile({ path: p, content: `written ${c.n}\n` }, files).then(() => served++));
                }
              }),
            );
          }
          assert.deepEqual(readdirSync(path.join(outside, 'd')).sort(), ['f.txt'], 'nothing was created outside');
          assert.equal(readFileSync(path.join(outside, 'd', 'f.txt'), 'utf8'), 'SECRET-F\n');
          assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'SECRET\n');
          assert.deepEqual(readdirSync(outside).sort(), ['d', 'secret.txt']);
        }),
        { numRuns: 100 },
      );
    } finally {
      flipper.kill('SIGKILL');
    }
    assert.ok(served > 0, 'some requests were served between the flips');
  });
});
