// Issue 38 item 10: a tool card shows paths relative to the session's folders, and a title's paths too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativePath, shownPath, titleWithRelativePaths } from '../../../src/common/webview/shownPath';

const roots = ['/home/ann/proj', '/home/ann/libs/shared/'];

test('paths under the session folders are relative (another folder named first); others are shortened', () => {
  assert.equal(shownPath('/home/ann/proj/src/app.ts', roots), 'src/app.ts');
  assert.equal(shownPath('/home/ann/proj/demo-edit.txt', roots), 'demo-edit.txt');
  assert.equal(shownPath('/home/ann/libs/shared/index.ts', roots), 'shared/index.ts');
  assert.equal(shownPath('/home/ann/project-b/x.ts', roots), '…/ann/project-b/x.ts', 'a sibling whose name starts the same is not under it');
  assert.equal(shownPath('/etc/hosts', roots), '/etc/hosts');
  assert.equal(shownPath('/home/ann/proj', roots), '…/home/ann/proj', 'the folder itself');
  assert.equal(shownPath('C:\\w\\src\\a.ts', ['C:\\w']), 'src\\a.ts');
  assert.equal(relativePath('/a/b', []), null, 'no folders: nothing is relative');
});

test('a tool title loses the session folders in its paths', () => {
  assert.equal(titleWithRelativePaths('Edit `/home/ann/proj/src/app.ts`', roots), 'Edit `src/app.ts`');
  assert.equal(titleWithRelativePaths('Read /home/ann/libs/shared/a.ts and /home/ann/proj/b.ts', roots), 'Read a.ts and b.ts');
  assert.equal(titleWithRelativePaths('Run ls /', ['/']), 'Run ls /', 'a root of "/" takes nothing off');
});
