/**
 * Checked reads and writes both ways they run: anchored through `/proc/self/fd` (Linux) and proved
 * afterwards by real path and inode (macOS, Windows), the second injected here. A folder swapped for a
 * symlink out of the workspace, or a file swapped, between the judgement and the open is refused either
 * way, and nothing outside is read or written.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { inspectTarget, readChecked, recheckTarget, writeChecked } from '../../src/node/safeFs';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'safefs-modes-')));
after(() => rmSync(base, { recursive: true, force: true }));
const changed = (e: unknown) => e instanceof Error && /changed while it was being opened/.test(e.message);

for (const anchored of [true, false]) {
  describe(`checked files (${anchored ? 'anchored through /proc/self/fd' : 'proved afterwards, as on macOS and Windows'})`, () => {
    const root = path.join(base, anchored ? 'anchored' : 'proved');
    const ws = path.join(root, 'ws');
    const outside = path.join(root, 'outside');
    mkdirSync(path.join(ws, 'd'), { recursive: true });
    mkdirSync(path.join(outside, 'd'), { recursive: true });
    writeFileSync(path.join(ws, 'd', 'f.txt'), 'inside\n');
    writeFileSync(path.join(outside, 'd', 'f.txt'), 'SECRET\n');

    /** ws/d becomes a symlink to outside/d (the judged folder moves aside). */
    const swapFolder = () => {
      renameSync(path.join(ws, 'd'), path.join(ws, 'd-saved'));
      symlinkSync(path.join(outside, 'd'), path.join(ws, 'd'));
    };
    const restoreFolder = () => {
      rmSync(path.join(ws, 'd'));
      renameSync(path.join(ws, 'd-saved'), path.join(ws, 'd'));
    };

    it('reads, and writes new folders and files', async () => {
      const t = await inspectTarget(path.join(ws, 'd', 'f.txt'), anchored);
      assert.equal(t.anchored, anchored);
      assert.equal(await readChecked(t), 'inside\n');
      const n = await inspectTarget(path.join(ws, 'new', 'deep', 'n.txt'), anchored);
      await writeChecked(n, 'new\n');
      assert.equal(readFileSync(path.join(ws, 'new', 'deep', 'n.txt'), 'utf8'), 'new\n');
      assert.equal((await recheckTarget(await inspectTarget(path.join(ws, 'd', 'f.txt'), anchored))).anchored, anchored);
    });

    it('refuses to read or write through a folder swapped for a symlink out after the judgement', async () => {
      const read = await inspectTarget(path.join(ws, 'd', 'f.txt'), anchored);
      const write = await inspectTarget(path.join(ws, 'd', 'f.txt'), anchored);
      swapFolder();
      try {
        await assert.rejects(readChecked(read), changed);
        await assert.rejects(writeChecked(write, 'OVERWRITTEN\n'), changed);
        assert.equal(readFileSync(path.join(outside, 'd', 'f.txt'), 'utf8'), 'SECRET\n');
      } finally {
        restoreFolder();
      }
    });

    it('refuses a file swapped for another after the judgement', async () => {
      const t = await inspectTarget(path.join(ws, 'd', 'f.txt'), anchored);
      writeFileSync(path.join(ws, 'd', 'other.txt'), 'other\n');
      renameSync(path.join(ws, 'd', 'other.txt'), path.join(ws, 'd', 'f.txt'));
      await assert.rejects(readChecked(t), changed);
      await assert.rejects(writeChecked(t, 'x'), changed);
      assert.equal(readFileSync(path.join(ws, 'd', 'f.txt'), 'utf8'), 'other\n');
    });
  });
}
