/**
 * A checked write and what it reads of the file it replaces: the line-ending sample and the text before
 * come from the handle the write opened in its held folder (proved to be the judged file), never from the
 * path again, so a folder flipped to a symlink after the check gives neither a sample nor a write outside.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { keepLineEndings } from '../../src/node/acp/lineEndings';
import { inspectTarget, readText, writeChecked } from '../../src/node/safeFs';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'safefs-write-')));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
mkdirSync(path.join(ws, 'd'), { recursive: true });
mkdirSync(path.join(outside, 'd'), { recursive: true });
after(() => rmSync(base, { recursive: true, force: true }));

describe('writeChecked and the file it replaces', () => {
  it('keeps CRLF from the sample of the replaced file; a new or LF file gets the content as given', async () => {
    const crlf = path.join(ws, 'crlf.txt');
    const lf = path.join(ws, 'lf.txt');
    writeFileSync(crlf, 'a\r\nb\r\n');
    writeFileSync(lf, 'a\nb\n');
    for (const f of [crlf, lf, path.join(ws, 'new.txt')]) {
      assert.equal(await writeChecked(await inspectTarget(f), (existing) => keepLineEndings(existing, 'x\ny\n')), true);
    }
    assert.equal(readFileSync(crlf, 'utf8'), 'x\r\ny\r\n');
    assert.equal(readFileSync(lf, 'utf8'), 'x\ny\n');
    assert.equal(readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'x\ny\n');
  });

  it('gives the content function the judged file itself, whole, and writes nothing when it returns null', async () => {
    const f = path.join(ws, 'same.txt');
    writeFileSync(f, 'before\n');
    const t = await inspectTarget(f);
    let before: string | null = 'not called';
    const wrote = await writeChecked(t, async (existing) => {
      assert.ok(existing);
      const s = await existing.stat({ bigint: true });
      assert.equal(s.ino, t.id?.ino);
      before = await readText(existing, t);
      return null;
    });
    assert.equal(wrote, false);
    assert.equal(before, 'before\n');
    assert.equal(readFileSync(f, 'utf8'), 'before\n');
    let none: unknown = 'not called';
    await writeChecked(await inspectTarget(path.join(ws, 'fresh.txt')), async (existing) => {
      none = existing;
      return 'fresh\n';
    });
    assert.equal(none, null);
  });

  it('a folder flipped to a symlink after the check: no sample is taken there and nothing is written there', async () => {
    const inside = path.join(ws, 'd', 'f.txt');
    const secret = path.join(outside, 'd', 'f.txt');
    writeFileSync(inside, 'inside\n');
    writeFileSync(secret, 'SECRET\r\n');
    const t = await inspectTarget(inside);
    renameSync(path.join(ws, 'd'), path.join(ws, 'd-saved'));
    symlinkSync(path.join(outside, 'd'), path.join(ws, 'd'));
    let sampled = false;
    await assert.rejects(
      writeChecked(t, async (existing) => {
        sampled = true;
        return keepLineEndings(existing, 'pwned\n');
      }),
      /changed while it was being opened/,
    );
    assert.equal(sampled, false, 'the content function never saw a file outside');
    assert.equal(readFileSync(secret, 'utf8'), 'SECRET\r\n');
    assert.equal(readFileSync(path.join(ws, 'd-saved', 'f.txt'), 'utf8'), 'inside\n');
  });
});
