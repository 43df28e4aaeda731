import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewPath } from '../../../src/common/changes/reviewPath';

test("a Windows path gets VS Code's lower-case drive letter; the rest of it and POSIX paths stay as they are", () => {
  assert.equal(reviewPath('C:\\Users\\Me\\Proj\\a.ts'), 'c:\\Users\\Me\\Proj\\a.ts');
  assert.equal(reviewPath('c:\\Users\\Me\\a.ts'), 'c:\\Users\\Me\\a.ts');
  assert.equal(reviewPath('\\\\server\\share\\a.ts'), '\\\\server\\share\\a.ts');
  assert.equal(reviewPath('/home/Me/C:/a.ts'), '/home/Me/C:/a.ts');
});
