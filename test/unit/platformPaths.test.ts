/** Small path rules that differ by platform, with the platform injected. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { reportPath } from '../../src/node/cli/check';
import { namesFolder } from '../../src/node/safeFs';

describe('platform path rules', () => {
  it('a trailing separator names a folder: `/` everywhere, `\\` only on Windows (a POSIX file name may end in one)', () => {
    assert.equal(namesFolder('C:\\ws\\d\\', true), true);
    assert.equal(namesFolder('C:/ws/d/', true), true);
    assert.equal(namesFolder('/ws/d/', false), true);
    assert.equal(namesFolder('/ws/odd\\', false), false);
    assert.equal(namesFolder('C:\\ws\\f.txt', true), false);
  });

  it('CI reports name a file inside the repository by a forward-slash relative path, else by file: URI', () => {
    assert.equal(reportPath('C:\\repo\\caps\\run.jsonl', 'C:\\repo', path.win32), 'caps/run.jsonl');
    assert.equal(reportPath('D:\\elsewhere\\run 1.jsonl', 'C:\\repo', path.win32), 'file:///D:/elsewhere/run%201.jsonl');
    assert.equal(reportPath('/repo/caps/run.jsonl', '/repo', path.posix), 'caps/run.jsonl');
    assert.equal(reportPath('/repo/my caps/#1 run.jsonl', '/repo', path.posix), 'my%20caps/%231%20run.jsonl');
    assert.equal(reportPath('/tmp/run.jsonl', '/repo', path.posix), 'file:///tmp/run.jsonl');
  });
});
