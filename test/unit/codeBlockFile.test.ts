import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeBlockFile, looksLikePath } from '../../src/common/codeBlockFile';

test('a fence names its file in the info string, in the forms agents write', () => {
  assert.equal(codeBlockFile('ts src/app.ts', null), 'src/app.ts');
  assert.equal(codeBlockFile('ts:src/app.ts', null), 'src/app.ts');
  assert.equal(codeBlockFile('typescript title="src/app.ts"', null), 'src/app.ts');
  assert.equal(codeBlockFile('python path=tools/run.py', null), 'tools/run.py');
  assert.equal(codeBlockFile("js file='index.js'", null), 'index.js');
  assert.equal(codeBlockFile('src/app.ts', null), 'src/app.ts');
  assert.equal(codeBlockFile('README.md', null), 'README.md');
});

test('or on the line just before the block', () => {
  assert.equal(codeBlockFile('ts', 'path: src/app.ts'), 'src/app.ts');
  assert.equal(codeBlockFile('ts', '**File:** `src/app.ts`'), 'src/app.ts');
  assert.equal(codeBlockFile('', 'Filename: `lib/x.py`'), 'lib/x.py');
  assert.equal(codeBlockFile('ts', '`src/app.ts`:'), 'src/app.ts');
  assert.equal(codeBlockFile('ts', '`src/app.ts`'), 'src/app.ts');
});

test('no file: a language alone, prose, a URL, a command or a shell-ish name', () => {
  assert.equal(codeBlockFile('ts', null), null);
  assert.equal(codeBlockFile('', null), null);
  assert.equal(codeBlockFile('bash', 'Run this:'), null);
  assert.equal(codeBlockFile('ts', 'Here is the new `greet` function in src/app.ts:'), null);
  assert.equal(codeBlockFile('ts https://example.com/x.ts', null), null);
  assert.equal(codeBlockFile('sh', 'path: `rm -rf /`'), null);
  assert.equal(codeBlockFile('ts', '`npm test`'), null);
  assert.equal(codeBlockFile('c++', null), null);
});

test('what counts as a path', () => {
  for (const ok of ['a.ts', 'src/a.ts', 'src\\a.ts', '/abs/x', '../up/x.md', 'Dockerfile/x', '.github/workflows/ci.yml']) assert.ok(looksLikePath(ok), ok);
  for (const bad of ['', '.', '..', 'src/', 'a', 'x|y.ts', 'a\nb.ts', 'file:///etc/passwd', 'x'.repeat(501), '`a.ts`', 'a*.ts'])
    assert.ok(!looksLikePath(bad), JSON.stringify(bad));
});
