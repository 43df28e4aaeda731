import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { decide, decideConfigWrite, OUTSIDE_WORKSPACE_POLICIES, SessionGrants } from '../../src/common/boundary';
import { insideAny as insideAnyFor, pathStyle } from '../../src/common/pathBoundary';
import { realPathOf, realRoots } from '../../src/node/realPath';

const posix = pathStyle('linux');
const insideAny = (roots: readonly string[], real: string) => insideAnyFor(roots, real, posix);

describe('boundary decisions', () => {
  it('allows inside, and outside follows acpChat.outsideWorkspace', () => {
    for (const access of ['read', 'write', 'terminal'] as const) {
      assert.equal(decide('ask', access, true), 'allow');
      assert.equal(decide('deny', access, true), 'allow');
      assert.equal(decide('ask', access, false), 'ask');
      assert.equal(decide('allow', access, false), 'allow');
      assert.equal(decide('deny', access, false), 'deny');
    }
    assert.equal(decide('allowRead', 'read', false), 'allow');
    assert.equal(decide('allowRead', 'write', false), 'ask');
    assert.equal(decide('allowRead', 'terminal', false), 'ask');
  });

  it('a config write is asked about under every policy but deny, which refuses it: allowing outside does not allow it', () => {
    for (const policy of OUTSIDE_WORKSPACE_POLICIES) assert.equal(decideConfigWrite(policy), policy === 'deny' ? 'deny' : 'ask', policy);
  });

  it('compares whole path segments', () => {
    assert.equal(insideAny(['/ws'], '/ws'), true);
    assert.equal(insideAny(['/ws'], '/ws/a/b'), true);
    assert.equal(insideAny(['/ws'], '/ws-evil/a'), false);
    assert.equal(insideAny(['/a', '/ws'], '/ws/x'), true);
    assert.equal(insideAny([], '/ws/x'), false);
  });

  it('session grants cover one folder, one session, and writing implies reading', () => {
    const g = new SessionGrants(posix);
    g.grant('s1', 'write', '/out/dir');
    assert.equal(g.allows('s1', 'write', '/out/dir/a.txt'), true);
    assert.equal(g.allows('s1', 'read', '/out/dir/sub/b.txt'), true);
    assert.equal(g.allows('s1', 'terminal', '/out/dir'), false);
    assert.equal(g.allows('s1', 'write', '/out/other.txt'), false);
    assert.equal(g.allows('s2', 'write', '/out/dir/a.txt'), false);
    g.grant('s1', 'read', '/etc');
    assert.equal(g.allows('s1', 'write', '/etc/passwd'), false);
  });

  it('"Deny for This Session" covers one kind of access in one session', () => {
    const g = new SessionGrants(posix);
    g.deny('s1', 'read');
    assert.equal(g.denies('s1', 'read'), true);
    assert.equal(g.denies('s1', 'write'), false);
    assert.equal(g.denies('s2', 'read'), false);
  });
});

describe('realPathOf', () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'realpath-')));
  const ws = path.join(base, 'ws');
  const out = path.join(base, 'out');
  mkdirSync(ws);
  mkdirSync(out);
  writeFileSync(path.join(out, 'f.txt'), 'x');
  symlinkSync(out, path.join(ws, 'link'));
  symlinkSync(path.join(out, 'new.txt'), path.join(ws, 'dangling'));
  symlinkSync('../out/rel-new.txt', path.join(ws, 'dangling-rel'));
  symlinkSync(path.join(ws, 'loop'), path.join(ws, 'loop'));
  after(() => rmSync(base, { recursive: true, force: true }));

  it('resolves `..`, symlinked folders and dangling symlinks to where the OS would go', async () => {
    assert.equal(await realPathOf(`${ws}/../out/f.txt`), path.join(out, 'f.txt'));
    assert.equal(await realPathOf(path.join(ws, 'link', 'f.txt')), path.join(out, 'f.txt'));
    assert.equal(await realPathOf(path.join(ws, 'link', 'not-yet', 'deep.txt')), path.join(out, 'not-yet', 'deep.txt'));
    assert.equal(await realPathOf(path.join(ws, 'dangling')), path.join(out, 'new.txt'));
    assert.equal(await realPathOf(path.join(ws, 'dangling-rel')), path.join(out, 'rel-new.txt'));
    // `link/..` is the parent of the link's target (as the OS sees it), not `ws`.
    assert.equal(await realPathOf(`${ws}/link/../out/f.txt`), path.join(out, 'f.txt'));
    assert.equal(await realPathOf(path.join(ws, 'missing', '..', 'x')), path.join(ws, 'x'));
    assert.equal(await realPathOf(path.join(ws, 'plain.txt')), path.join(ws, 'plain.txt'));
  });

  it('fails on loops and relative paths instead of guessing', async () => {
    await assert.rejects(realPathOf(path.join(ws, 'loop')), /ELOOP|too many levels/);
    await assert.rejects(realPathOf('relative/x'), /not an absolute path/);
  });

  it('realRoots skips roots that do not exist', async () => {
    assert.deepEqual(await realRoots([ws, path.join(base, 'gone')]), [ws]);
  });
});
