/**
 * The platform-aware path boundary, with the platform injected: Windows, macOS and Linux rules checked
 * here against a table of tricky spellings, and against Node's own `path.win32` / `path.posix` for
 * random paths.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { insideAny, isConfigPath, isInside, pathStyle, samePath } from '../../src/common/pathBoundary';

const win = pathStyle('win32');
const mac = pathStyle('darwin');
const linux = pathStyle('linux');

describe('isInside on Windows', () => {
  const table: [parent: string, child: string, inside: boolean][] = [
    ['C:\\ws', 'C:\\ws', true],
    ['C:\\ws', 'C:\\ws\\a.txt', true],
    ['C:\\ws\\', 'C:\\ws', true],
    ['C:\\ws', 'c:\\WS\\A.TXT', true],
    ['c:\\Users\\Me\\Proj', 'C:/users/me/proj/src/x.ts', true],
    ['C:\\ws', 'C:\\ws2\\a.txt', false],
    ['C:\\ws', 'C:\\ws-evil', false],
    ['C:\\ws', 'D:\\ws\\a.txt', false],
    ['C:\\ws', 'C:\\ws\\..\\secret.txt', false],
    ['C:\\ws', 'C:\\ws\\sub\\..\\a.txt', true],
    ['C:\\ws', 'C:\\ws\\.\\a.txt', true],
    ['C:\\ws', 'C:\\ws\\\\\\a.txt', true],
    ['C:\\ws', '\\\\?\\C:\\ws\\a.txt', true],
    ['C:\\ws', '\\\\?\\c:\\WS\\..\\x', false],
    ['C:\\ws', '\\\\.\\C:\\ws\\a.txt', true],
    ['C:\\ws', '//?/C:/ws/a.txt', true],
    ['\\\\server\\share\\ws', '\\\\SERVER\\Share\\ws\\a.txt', true],
    ['\\\\server\\share\\ws', '\\\\?\\UNC\\server\\share\\ws\\a.txt', true],
    ['\\\\server\\share\\ws', '\\\\server\\other\\ws\\a.txt', false],
    // `..` cannot climb above a share (as path.win32.resolve agrees); another share is another root.
    ['\\\\server\\share', '\\\\server\\share\\..\\other\\x', true],
    ['C:\\ws', 'file:///C:/ws/a%20b.txt', true],
    ['C:\\ws', 'file:///c%3A/ws/a.txt', true],
    ['C:\\ws', 'file:///D:/ws/a.txt', false],
    ['\\\\server\\share\\ws', 'file://server/share/ws/a.txt', true],
    // Windows drops trailing dots and spaces: `ws.` is `ws`.
    ['C:\\ws', 'C:\\ws.\\a.txt', true],
    ['C:\\ws', 'C:\\ws \\a.txt', true],
    // Not absolute on Windows: the current drive's root, drive-relative, relative, and POSIX-only forms.
    ['C:\\ws', '\\ws\\a.txt', false],
    ['C:\\ws', 'C:ws\\a.txt', false],
    ['C:\\ws', 'ws\\a.txt', false],
    ['C:\\ws', '/ws/a.txt', false],
    ['C:\\ws', 'C:\\ws\\a\0.txt', false],
  ];
  for (const [parent, child, inside] of table) {
    it(`${JSON.stringify(child)} ${inside ? 'is' : 'is not'} inside ${JSON.stringify(parent)}`, () => {
      assert.equal(isInside(parent, child, win), inside);
    });
  }
});

describe('isInside on macOS and Linux', () => {
  const table: [parent: string, child: string, mac: boolean, linux: boolean][] = [
    ['/Users/me/Proj', '/Users/me/Proj/a.ts', true, true],
    ['/Users/me/Proj', '/users/me/proj/a.ts', true, false],
    ['/ws', '/ws/', true, true],
    ['/ws/', '/ws', true, true],
    ['/ws', '/ws-evil/a', false, false],
    ['/ws', '/ws/../etc/passwd', false, false],
    ['/ws', '//ws//a', true, true],
    ['/ws', 'file:///ws/a%2Fb', true, true],
    ['/ws', 'file://evil.example/ws/a', false, false],
    ['/ws', 'file:///ws/%E0%A4%A', false, false],
    // A backslash is an ordinary character in a POSIX name: `\ws\a` is not under `/ws`.
    ['/ws', '\\ws\\a', false, false],
    ['/ws', '/ws/a\\..\\..\\x', true, true],
    ['/ws', 'ws/a', false, false],
    ['/', '/anything', true, true],
  ];
  for (const [parent, child, onMac, onLinux] of table) {
    it(`${JSON.stringify(child)} against ${JSON.stringify(parent)}: macOS ${onMac}, Linux ${onLinux}`, () => {
      assert.equal(isInside(parent, child, mac), onMac);
      assert.equal(isInside(parent, child, linux), onLinux);
    });
  }

  it('insideAny and samePath use the same rules', () => {
    assert.equal(insideAny(['/a', 'C:\\ws'], 'c:/WS/x', win), true);
    assert.equal(insideAny([], '/x', linux), false);
    assert.equal(samePath('C:\\ws\\', 'c:/ws', win), true);
    assert.equal(samePath('/ws', '/WS', linux), false);
  });
});

describe("agrees with Node's path module for random paths", () => {
  const name = fc.constantFrom('a', 'B', 'ws', 'WS', 'x.txt', '..', '.', 'ws2', 'é');
  const sepWin = fc.constantFrom('\\', '/', '\\\\');
  const segs = fc.array(name, { maxLength: 6 });

  /** What Node says: resolve both, then compare segment-wise (case-folded when the platform folds case). */
  const reference = (p: typeof path.win32, parent: string, child: string, fold: boolean) => {
    const f = (s: string) => (fold ? s.toLowerCase() : s);
    const rel = p.relative(f(p.resolve(parent)), f(p.resolve(child)));
    return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  };

  it('win32: drive paths with mixed separators and case', () => {
    fc.assert(
      fc.property(fc.constantFrom('C:', 'c:', 'D:'), segs, fc.constantFrom('C:', 'c:', 'D:'), segs, sepWin, (d1, a, d2, b, sep) => {
        const parent = `${d1}\\${a.join('\\')}`;
        const child = `${d2}${sep}${b.join(sep)}`;
        assert.equal(isInside(parent, child, win), reference(path.win32, parent, child, true), `${parent} / ${child}`);
      }),
    );
  });

  it('posix: case-sensitive on Linux, folded on macOS', () => {
    fc.assert(
      fc.property(segs, segs, (a, b) => {
        const parent = `/${a.join('/')}`;
        const child = `/${b.join('/')}`;
        assert.equal(isInside(parent, child, linux), reference(path.posix, parent, child, false), `${parent} / ${child}`);
        assert.equal(isInside(parent, child, mac), reference(path.posix, parent, child, true), `${parent} / ${child}`);
      }),
    );
  });
});

describe('isConfigPath', () => {
  it('names what configures VS Code, git or a dev container, on every platform', () => {
    assert.equal(isConfigPath('/ws', '/ws/.vscode/settings.json', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/.vscode', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/.git/hooks/pre-commit', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/sub/.git/config', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/.gitmodules', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/.devcontainer/devcontainer.json', linux), true);
    assert.equal(isConfigPath('/ws', '/ws/team.code-workspace', linux), true);
    assert.equal(isConfigPath('C:\\ws', 'c:/WS/.VSCode/Tasks.json', win), true);
    assert.equal(isConfigPath('C:\\ws', 'C:\\ws\\.vscode.\\tasks.json', win), true);
    assert.equal(isConfigPath('/ws', '/ws/src/vscode/x.ts', linux), false);
    assert.equal(isConfigPath('/ws', '/ws/.gitignore', linux), false);
    assert.equal(isConfigPath('/ws/.git', '/ws/.git/x', linux), false, 'only what is under the root counts');
  });
});
