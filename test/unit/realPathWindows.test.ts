/**
 * The boundary's real paths on Windows, with the file system injected: a model of what
 * GetFinalPathNameByHandle (Node's native realpath) does with 8.3 short names, junctions, `..`, case and
 * `\\?\` prefixes, and the boundary's verdict on the result. The model returns results both with the raw
 * API's `\\?\` prefix and without it (as libuv strips it): the verdicts must not differ.
 */
import assert from 'node:assert/strict';
import { realpath as nativeRealpath } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isInside, pathStyle } from '../../src/common/pathBoundary';
import { hostFs, realPathOf, realRoots, type RealPathFs } from '../../src/node/realPath';

const win = path.win32;
type Node = { kind: 'dir' | 'file' } | { kind: 'link'; target: string };

/** Long paths as on disk (their case is the disk's), short names per folder, junctions by target. */
const DISK: Record<string, Node> = {
  'C:\\': { kind: 'dir' },
  'C:\\Program Files': { kind: 'dir' },
  'C:\\Program Files\\ws': { kind: 'dir' },
  'C:\\Program Files\\ws\\a.txt': { kind: 'file' },
  'C:\\Program Files\\ws\\Sub Folder': { kind: 'dir' },
  'C:\\Program Files\\ws\\Sub Folder\\b.txt': { kind: 'file' },
  'C:\\Program Files\\ws\\inner': { kind: 'link', target: 'C:\\Program Files\\ws\\Sub Folder' },
  'C:\\Program Files\\ws\\out': { kind: 'link', target: '\\??\\D:\\outside' },
  'C:\\Program Files\\ws\\net': { kind: 'link', target: '\\\\?\\UNC\\server\\share\\x' },
  'C:\\Program Files\\ws\\dangling': { kind: 'link', target: 'D:\\outside\\new.txt' },
  'C:\\Program Files\\ws\\dangling-in': { kind: 'link', target: '\\\\?\\C:\\Program Files\\ws\\new.txt' },
  'C:\\Progra~1.lnk': { kind: 'link', target: 'D:\\outside' },
  'D:\\': { kind: 'dir' },
  'D:\\outside': { kind: 'dir' },
  'D:\\outside\\secret.txt': { kind: 'file' },
  '\\\\server\\share\\': { kind: 'dir' },
  '\\\\server\\share\\x': { kind: 'dir' },
};
const SHORT: Record<string, string> = { 'C:\\PROGRA~1': 'Program Files', 'C:\\Program Files\\ws\\SUBFOL~1': 'Sub Folder' };

const lookup = (p: string) => Object.keys(DISK).find((k) => k.toLowerCase() === p.toLowerCase());
const enoent = (p: string) => Object.assign(new Error(`ENOENT: no such file or directory, '${p}'`), { code: 'ENOENT' });

/** GetFinalPathNameByHandle, modelled: `..` goes first by spelling, then each name is opened. */
function finalPath(p: string, hops = 0): string {
  if (hops > 10) throw Object.assign(new Error('ELOOP'), { code: 'ELOOP' });
  const full = win.resolve(
    p
      .replace(/^\\\\\?\\UNC\\/i, '\\\\')
      .replace(/^\\\\[?.]\\(?=[A-Za-z]:)/, '')
      .replace(/^\\\?\?\\/, ''),
  );
  const root = win.parse(full).root;
  let cur = lookup(root) ?? root;
  for (const name of full
    .slice(root.length)
    .split('\\')
    .filter((s) => s)) {
    const shortKey = Object.keys(SHORT).find((k) => k.toLowerCase() === win.join(cur, name).toLowerCase());
    const at = lookup(win.join(cur, shortKey ? SHORT[shortKey]! : name));
    if (at === undefined) throw enoent(p);
    const node = DISK[at]!;
    cur = node.kind === 'link' ? finalPath(node.target, hops + 1) : at;
  }
  return cur;
}

function windowsFs(prefixed: boolean): RealPathFs {
  return {
    path: win,
    realpath: async (p) => {
      const real = finalPath(p);
      if (!prefixed) return real;
      return real.startsWith('\\\\') ? `\\\\?\\UNC\\${real.slice(2)}` : `\\\\?\\${real}`;
    },
    readlink: async (p) => {
      const parent = finalPath(win.dirname(p));
      const at = lookup(win.join(parent, win.basename(p)));
      const node = at === undefined ? undefined : DISK[at];
      if (node?.kind !== 'link') throw Object.assign(new Error('EINVAL'), { code: at === undefined ? 'ENOENT' : 'EINVAL' });
      return node.target;
    },
  };
}

const style = pathStyle('win32');
// [requested, real path, inside the workspace C:\PROGRA~1\ws]
const TABLE: [string, string, boolean][] = [
  ['C:\\PROGRA~1\\ws\\a.txt', 'C:\\Program Files\\ws\\a.txt', true],
  ['c:\\progra~1\\WS\\A.TXT', 'C:\\Program Files\\ws\\a.txt', true],
  ['C:\\Program Files\\ws\\SUBFOL~1\\b.txt', 'C:\\Program Files\\ws\\Sub Folder\\b.txt', true],
  ['C:\\Program Files\\ws\\inner\\b.txt', 'C:\\Program Files\\ws\\Sub Folder\\b.txt', true],
  ['C:\\PROGRA~1\\ws\\out\\secret.txt', 'D:\\outside\\secret.txt', false],
  ['C:\\PROGRA~1\\ws\\out\\not-yet\\deep.txt', 'D:\\outside\\not-yet\\deep.txt', false],
  ['C:\\Program Files\\ws\\net\\y.txt', '\\\\server\\share\\x\\y.txt', false],
  ['C:\\Program Files\\ws\\dangling', 'D:\\outside\\new.txt', false],
  ['C:\\Program Files\\ws\\dangling-in', 'C:\\Program Files\\ws\\new.txt', true],
  // Windows drops `..` by spelling before it opens anything: `out\..` is the workspace again.
  ['C:\\Program Files\\ws\\out\\..\\a.txt', 'C:\\Program Files\\ws\\a.txt', true],
  ['C:\\PROGRA~1\\ws\\..\\ws\\new\\x.txt', 'C:\\Program Files\\ws\\new\\x.txt', true],
  ['\\\\?\\C:\\PROGRA~1\\ws\\a.txt', 'C:\\Program Files\\ws\\a.txt', true],
  ['C:/Program Files/ws/SUBFOL~1/b.txt', 'C:\\Program Files\\ws\\Sub Folder\\b.txt', true],
  ['C:\\PROGRA~1.lnk\\secret.txt', 'D:\\outside\\secret.txt', false],
];

for (const prefixed of [false, true]) {
  describe(`real paths on Windows (results ${prefixed ? 'with' : 'without'} the \\\\?\\ prefix)`, () => {
    const fs = windowsFs(prefixed);
    it('resolves the workspace root given by its short name to its long real path', async () => {
      assert.deepEqual(await realRoots(['C:\\PROGRA~1\\ws', 'C:\\gone'], fs), ['C:\\Program Files\\ws']);
    });
    for (const [requested, real, inside] of TABLE) {
      it(`${requested} is ${real}, ${inside ? 'inside' : 'outside'}`, async () => {
        const [root] = await realRoots(['C:\\PROGRA~1\\ws'], fs);
        const got = await realPathOf(requested, fs);
        assert.equal(got, real);
        assert.equal(isInside(root!, got, style), inside);
      });
    }
  });
}

describe('real paths on this machine', () => {
  it('use the native realpath (GetFinalPathNameByHandle on Windows), not the JavaScript walk that keeps short names', () => {
    assert.equal(hostFs.realpath, nativeRealpath);
    assert.equal(hostFs.path, path);
  });
});
