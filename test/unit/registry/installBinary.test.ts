/**
 * Installing a binary distribution: downloaded from a local server, checked (size, SHA-256), unpacked
 * (.tar.gz, .tar.bz2, .zip, a bare executable) into global storage, the command made executable; and every way an
 * archive can go wrong leaves nothing installed and nothing outside the install folder.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { archiveKind, type BinaryTarget } from '../../../src/common/agents/registry';
import { installBinary, type InstallOptions } from '../../../src/node/registry/installBinary';
import { entryPath, UnsafeArchiveError } from '../../../src/node/registry/unpack';
import { bytes, fixtureServer, sha256, tarBz2, tarGz, zip, type FixtureEntry, type FixtureServer } from './fixtures';

const posix = process.platform !== 'win32';
const script = '#!/bin/sh\necho "agent says $1"\n';

describe('binary install', () => {
  let server: FixtureServer;
  let dir: string;
  let root: string;
  let n = 0;
  const serve = (name: string, body: Buffer) => {
    server.route(`/${name}`, bytes(body));
    return `${server.base}/${name}`;
  };
  const install = (target: BinaryTarget, over: Partial<InstallOptions> = {}) =>
    installBinary({ agentId: `agent${++n}`, version: '1.0.0', target, archive: archiveKind(target.archive), root, fetch, platform: process.platform, ...over });
  /** Only the installed agents' folders: no staging folder or download is left behind. */
  const leftovers = () => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.partial-|\.download-/.test(f));

  before(async () => {
    server = await fixtureServer();
    dir = mkdtempSync(path.join(tmpdir(), 'acp-install-'));
    root = path.join(dir, 'storage', 'agents');
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a .tar.gz with the right checksum is unpacked under <root>/<id>/<version>/ and its command runs', { skip: !posix }, async () => {
    const archive = await tarGz([
      { name: 'bin/', type: 'directory', mode: 0o755 },
      { name: 'bin/agent', content: script, mode: 0o644 },
      { name: 'README', content: 'hi' },
    ]);
    const command = await install({ archive: serve('a.tar.gz', archive), cmd: './bin/agent', sha256: sha256(archive).toUpperCase() }, { agentId: 'tarry', version: '2.0.1' });
    assert.equal(command, path.join(root, 'tarry', '2.0.1', 'bin', 'agent'));
    assert.ok(statSync(command).mode & 0o100, 'made executable');
    assert.equal(execFileSync(command, ['hello'], { encoding: 'utf8' }), 'agent says hello\n');
    assert.deepEqual(leftovers(), []);
  });

  it('a .tar.bz2 (several bzip2 blocks) is unpacked through the same tar reader', { skip: !posix }, async () => {
    // Over 900 KB of text that does not repeat, so bzip2 writes more than one block.
    const big = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${(i * 2654435761) % 4294967296}`).join('\n');
    const archive = await tarBz2([
      { name: 'agent/', type: 'directory', mode: 0o755 },
      { name: 'agent/run', content: script, mode: 0o755 },
      { name: 'agent/data.txt', content: big },
    ]);
    const url = serve('a.tar.bz2', archive);
    assert.equal(archiveKind(url), 'tar.bz2');
    const command = await install({ archive: url, cmd: 'agent/run', sha256: sha256(archive) }, { agentId: 'bzipped' });
    assert.equal(execFileSync(command, ['bz2'], { encoding: 'utf8' }), 'agent says bz2\n');
    assert.equal(readFileSync(path.join(root, 'bzipped', '1.0.0', 'agent', 'data.txt'), 'utf8'), big);
    assert.deepEqual(leftovers(), []);
  });

  it('a .tar.bz2 that is cut short or not bzip2 installs nothing', async () => {
    const archive = await tarBz2([{ name: 'agent', content: script }]);
    await assert.rejects(install({ archive: serve('cut.tar.bz2', archive.subarray(0, archive.length - 20)), cmd: 'agent' }, { agentId: 'cutbz' }));
    await assert.rejects(install({ archive: serve('notbz.tar.bz2', await tarGz([{ name: 'agent', content: script }])), cmd: 'agent' }, { agentId: 'notbz' }));
    assert.ok(!existsSync(path.join(root, 'cutbz')) || readdirSync(path.join(root, 'cutbz')).length === 0);
    assert.ok(!existsSync(path.join(root, 'notbz', '1.0.0')));
    assert.deepEqual(leftovers(), []);
  });

  it('a .zip keeps its modes; the command is made executable; a reinstall replaces the old files', { skip: !posix }, async () => {
    const first = zip([
      { name: 'agent', content: script, mode: 0o600 },
      { name: 'old.txt', content: 'old' },
    ]);
    const command = await install({ archive: serve('z1.zip', first), cmd: 'agent' }, { agentId: 'zippy' });
    assert.equal(execFileSync(command, ['zip'], { encoding: 'utf8' }), 'agent says zip\n');
    const second = zip([
      { name: 'lib/', type: 'directory', mode: 0o755 },
      { name: 'lib/x.js', content: '1', mode: 0o640 },
      { name: 'agent', content: script, mode: 0o755 },
    ]);
    await install({ archive: serve('z2.zip', second), cmd: './agent' }, { agentId: 'zippy' });
    assert.equal(statSync(path.join(root, 'zippy', '1.0.0', 'lib', 'x.js')).mode & 0o777, 0o640);
    assert.ok(!existsSync(path.join(root, 'zippy', '1.0.0', 'old.txt')), 'the earlier install is replaced');
  });

  it('a bare executable is saved as the command', { skip: !posix }, async () => {
    const command = await install({ archive: serve('agent-linux', Buffer.from(script)), cmd: './agent' });
    assert.equal(execFileSync(command, ['raw'], { encoding: 'utf8' }), 'agent says raw\n');
  });

  it('a checksum mismatch installs nothing', async () => {
    const archive = await tarGz([{ name: 'agent', content: script }]);
    await assert.rejects(
      install({ archive: serve('bad-sum.tar.gz', archive), cmd: 'agent', sha256: 'b'.repeat(64) }, { agentId: 'summed' }),
      /checksum mismatch: SHA-256 [0-9a-f]{64}, the registry says b{64}/,
    );
    assert.ok(!existsSync(path.join(root, 'summed', '1.0.0')));
    assert.deepEqual(leftovers(), []);
  });

  it('a download cut short, or over the size limit, installs nothing', async () => {
    const archive = await tarGz([{ name: 'agent', content: script.repeat(200) }]);
    server.route('/short.tar.gz', (_req, res) => {
      res.writeHead(200, { 'content-length': archive.length + 1000 });
      res.write(archive, () => res.destroy());
    });
    await assert.rejects(install({ archive: `${server.base}/short.tar.gz`, cmd: 'agent' }, { agentId: 'short' }), /broke off after \d+ bytes/);
    assert.ok(!existsSync(path.join(root, 'short', '1.0.0')));
    await assert.rejects(install({ archive: serve('big.tar.gz', archive), cmd: 'agent' }, { maxBytes: 100 }), /more than the limit of 100/);
    // The size the server announces is checked against what arrives.
    server.route('/chunked.tar.gz', (_req, res) => {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      res.end(archive);
    });
    assert.ok(await install({ archive: `${server.base}/chunked.tar.gz`, cmd: 'agent' }), 'no announced size: nothing to compare');
    assert.deepEqual(leftovers(), []);
  });

  it('an HTTP error, a missing command or an unsupported format installs nothing', async () => {
    await assert.rejects(install({ archive: `${server.base}/missing.zip`, cmd: 'agent' }), /HTTP 404/);
    await assert.rejects(install({ archive: serve('nocmd.zip', zip([{ name: 'other', content: 'x' }])), cmd: './agent' }), /the archive has no '\.\/agent'/);
    await assert.rejects(install({ archive: `${server.base}/a.tar.xz`, cmd: 'agent' }), /cannot be unpacked here/);
    assert.deepEqual(leftovers(), []);
  });

  describe('zip-slip: no entry escapes the install folder', () => {
    const outside = () => readdirSync(dir).filter((f) => f !== 'storage');
    // An absolute name aims at the test's own folder, whose contents are checked.
    const bad: [string, () => FixtureEntry[]][] = [
      ['a ../ entry', () => [{ name: '../evil.txt', content: 'x' }]],
      ['a nested ../ entry', () => [{ name: 'ok/../../../evil.txt', content: 'x' }]],
      ['an absolute entry', () => [{ name: `${dir}/evil.txt`, content: 'x' }]],
      ['a backslash ..\\ entry', () => [{ name: '..\\evil.txt', content: 'x' }]],
    ];
    for (const [what, make] of bad) {
      it(`.zip with ${what} is refused`, async () => {
        await assert.rejects(install({ archive: serve(`slip${++n}.zip`, zip([{ name: 'agent', content: script }, ...make()])), cmd: 'agent' }, { agentId: 'slipzip' }));
        assert.deepEqual(outside(), []);
        assert.ok(!existsSync(path.join(root, 'slipzip', '1.0.0')));
      });
      it(`.tar.gz with ${what} is refused`, async () => {
        await assert.rejects(
          install({ archive: serve(`slip${++n}.tar.gz`, await tarGz([{ name: 'agent', content: script }, ...make()])), cmd: 'agent' }, { agentId: 'sliptar' }),
          UnsafeArchiveError,
        );
        assert.deepEqual(outside(), []);
        assert.ok(!existsSync(path.join(root, 'sliptar', '1.0.0')));
      });
    }
    it('.tar.gz with a link out, then a file written through it, is refused', { skip: !posix }, async () => {
      const entries: FixtureEntry[] = [
        { name: 'agent', content: script },
        { name: 'out', type: 'symlink', linkname: '../../../..' },
        { name: 'out/evil.txt', content: 'x' },
      ];
      await assert.rejects(install({ archive: serve('link.tar.gz', await tarGz(entries)), cmd: 'agent' }, { agentId: 'linky' }), /outside the install folder/);
      const abs: FixtureEntry[] = [
        { name: 'agent', content: script },
        { name: 'etc', type: 'symlink', linkname: '/etc' },
      ];
      await assert.rejects(install({ archive: serve('abslink.tar.gz', await tarGz(abs)), cmd: 'agent' }, { agentId: 'linky' }), /absolute path/);
      assert.deepEqual(outside(), []);
    });
    it('.tar.gz with a link inside the folder is kept', { skip: !posix }, async () => {
      const entries: FixtureEntry[] = [
        { name: 'real/agent', content: script, mode: 0o755 },
        { name: 'agent', type: 'symlink', linkname: 'real/agent' },
      ];
      const command = await install({ archive: serve('inlink.tar.gz', await tarGz(entries)), cmd: 'agent' });
      assert.equal(execFileSync(command, ['linked'], { encoding: 'utf8' }), 'agent says linked\n');
    });
    it('a registry cmd that points out of the folder is refused', async () => {
      await assert.rejects(install({ archive: serve('cmd.zip', zip([{ name: 'agent', content: script }])), cmd: '../../agent' }), UnsafeArchiveError);
    });
  });

  it('entry names: relative ones stay inside; absolute, drive-letter and .. names are refused', () => {
    const r = path.join(dir, 'r');
    assert.equal(entryPath(r, 'a/b.txt'), path.join(r, 'a', 'b.txt'));
    assert.equal(entryPath(r, './a'), path.join(r, 'a'));
    for (const bad of ['/etc/passwd', 'C:/Windows/x', 'c:x', '../x', 'a/../../x', '..\\x', 'a\\..\\..\\x', '', 'a\0b'])
      assert.throws(() => entryPath(r, bad), UnsafeArchiveError, bad);
  });
});
