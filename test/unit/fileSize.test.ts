// Small files that do one thing: no TypeScript source under src/ or webview/ is over 400 lines. A file
// that grows past it is split by what its parts are for, each part's header saying why it exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const MAX_LINES = 400;

function lineCounts(dir: string): [string, number][] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => {
      const file = path.posix.join(dir, f.split(path.sep).join('/'));
      const text = readFileSync(path.join(root, file), 'utf8');
      return [file, text.split('\n').length - (text.endsWith('\n') ? 1 : 0)];
    });
}

test(`no source file under src/ or webview/ is over ${MAX_LINES} lines`, () => {
  const counts = [...lineCounts('src'), ...lineCounts('webview')];
  assert.ok(counts.length > 100, 'the sources were found');
  const over = counts.filter(([, n]) => n > MAX_LINES).map(([f, n]) => `${f}: ${n} lines`);
  assert.deepEqual(over, []);
});
