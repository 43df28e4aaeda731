/** CRLF files keep CRLF through an agent's LF write, and its LF diffs are read in the file's endings. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { resolveDiffs } from '../../../src/common/changes/derive';
import { eolOf, inFileEol, withEol } from '../../../src/common/changes/eol';
import { lineStats } from '../../../src/common/changes/lineStats';
import { nodeWriteTextFile } from '../../../src/node/acp/nodeHandlers';

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

describe('line endings', () => {
  it("tells a file's line ending by the majority of its breaks", () => {
    assert.equal(eolOf('a\r\nb\r\n'), '\r\n');
    assert.equal(eolOf('a\nb\n'), '\n');
    assert.equal(eolOf('a\r\nb\nc\r\n'), '\r\n');
    assert.equal(eolOf('one line'), undefined);
    assert.equal(withEol('a\nb\r\nc', '\r\n'), 'a\r\nb\r\nc');
    assert.equal(withEol('a\r\nb', '\n'), 'a\nb');
  });

  it('writes LF content to a CRLF file in CRLF; LF files, new files and CRLF content stay as sent', () => {
    assert.equal(inFileEol(crlf('x\ny\n'), 'a\nb\n'), 'a\r\nb\r\n');
    assert.equal(inFileEol('x\ny\n', 'a\nb\n'), 'a\nb\n');
    assert.equal(inFileEol(null, 'a\nb\n'), 'a\nb\n');
    assert.equal(inFileEol(crlf('x\n'), crlf('a\nb\n')), 'a\r\nb\r\n');
    assert.equal(inFileEol('no breaks', 'a\nb'), 'a\nb');
  });

  it('fs/write_text_file (CLI) keeps a CRLF file CRLF on disk', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'acp-eol-'));
    const win = path.join(dir, 'win.txt');
    const unix = path.join(dir, 'unix.txt');
    writeFileSync(win, crlf('one\ntwo\nthree\n'));
    writeFileSync(unix, 'one\ntwo\n');
    await nodeWriteTextFile({ path: win, content: 'one\nTWO\nthree\n' });
    await nodeWriteTextFile({ path: unix, content: 'one\nTWO\n' });
    await nodeWriteTextFile({ path: path.join(dir, 'new.txt'), content: 'a\nb\n' });
    assert.equal(readFileSync(win, 'utf8'), 'one\r\nTWO\r\nthree\r\n');
    assert.equal(readFileSync(unix, 'utf8'), 'one\nTWO\n');
    assert.equal(readFileSync(path.join(dir, 'new.txt'), 'utf8'), 'a\nb\n');
  });

  it("counts only the changed line between a CRLF file and the agent's LF text", () => {
    assert.deepEqual(lineStats(crlf('one\ntwo\nthree\n'), 'one\nTWO\nthree\n'), { added: 1, removed: 1 });
    assert.deepEqual(lineStats(crlf('one\ntwo\n'), crlf('one\ntwo\n')), { added: 0, removed: 0 });
  });

  it("undoes an agent's LF diffs on a CRLF file, giving back the CRLF text (whole file and fragment)", () => {
    const now = crlf('one\nTWO\nthree\nfour!\n');
    const r = resolveDiffs(now, [
      { path: '/w/f', oldText: 'one\ntwo\nthree\nfour\n', newText: 'one\nTWO\nthree\nfour\n' },
      { path: '/w/f', oldText: 'three\nfour', newText: 'three\nfour!' },
    ]);
    assert.deepEqual(r, { resolved: true, oldText: crlf('one\ntwo\nthree\nfour\n'), agentText: now });
  });
});

describe('line endings in the tool card diff', () => {
  it('shows only the changed line when the old text is CRLF and the new LF', async () => {
    const { lineDiff } = await import('../../../webview/lineDiff');
    assert.deepEqual(
      lineDiff(crlf('a\nb\nc\n'), 'a\nB\nc\n')
        .filter((l) => l.t !== ' ')
        .map((l) => l.t + l.text),
      ['-b', '+B'],
    );
  });
});
