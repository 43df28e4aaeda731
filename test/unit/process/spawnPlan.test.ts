import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findOnPath, pathCandidates, resolveCommand, type FileProbe } from '../../../src/node/findOnPath';
import { planSpawn, UnsafeArgumentError, type SpawnHost } from '../../../src/node/process/spawnPlan';
import { killTree, treeKillPlan } from '../../../src/node/process/processTree';
import { argument as quoteArgument } from 'cross-spawn/lib/util/escape';
import { argv, cmdPass } from './cmdExe';

const NODE_DIR = 'C:\\Program Files\\nodejs';
const USER_NPM = "C:\\Users\\Ann O'Neil\\AppData\\Roaming\\npm";
/** A Windows machine: npx and gemini are .cmd shims, node and uvx real programs. Names are case-insensitive. */
const FILES = new Set(
  [`${NODE_DIR}\\node.exe`, `${NODE_DIR}\\npx.cmd`, `${USER_NPM}\\gemini.cmd`, 'C:\\Users\\me\\.local\\bin\\uvx.exe', 'C:\\tools\\run agent.bat'].map((f) => f.toLowerCase()),
);
const ENV = { Path: `${NODE_DIR};${USER_NPM};C:\\Users\\me\\.local\\bin`, PATHEXT: '.COM;.EXE;.BAT;.CMD' };
const win: SpawnHost = {
  platform: 'win32',
  comspec: 'C:\\Windows\\system32\\cmd.exe',
  resolve: (c) => pathCandidates(c, ENV, 'win32', 'C:\\ws').find((f) => FILES.has(f.toLowerCase())),
};
/** Variables a hostile argument might try to expand. */
const CMD_ENV = { PATH: 'C:\\Windows', USERNAME: 'me', CD: 'C:\\ws', COMSPEC: 'cmd.exe' };

/** What the program behind a `cmd /d /s /c "…"` plan receives, and what cmd.exe interpreted on the way. */
function throughCmd(args: readonly string[], batchReparses: boolean): { argv: string[]; interpreted: string[] } {
  assert.deepEqual(args.slice(0, 3), ['/d', '/s', '/c']);
  const quoted = args[3]!;
  assert.ok(quoted.startsWith('"') && quoted.endsWith('"'));
  // /s: the first and last quote go, the rest runs as written.
  const first = cmdPass(quoted.slice(1, -1), CMD_ENV, true);
  // A batch file's `%*` hands its arguments to cmd's parser once more (without a second % expansion).
  const second = batchReparses ? cmdPass(first.text, CMD_ENV, false) : { text: first.text, interpreted: [] };
  return { argv: argv(second.text), interpreted: [...first.interpreted, ...second.interpreted] };
}

describe('spawn plan', () => {
  it('runs commands as given on Linux and macOS, windows hidden', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const plan = planSpawn({ command: 'npx', args: ['-y', '@zed-industries/claude-code-acp', 'a & b', '"q"'] }, { platform, resolve: () => assert.fail('no lookup on POSIX') });
      assert.deepEqual(plan, { file: 'npx', args: ['-y', '@zed-industries/claude-code-acp', 'a & b', '"q"'], windowsVerbatimArguments: false, windowsHide: true, via: 'direct' });
    }
  });

  it('runs a command line through /bin/sh on POSIX and cmd.exe on Windows when asked to', () => {
    assert.deepEqual(planSpawn({ command: 'ls | wc -l', args: [], shellLine: true }, { platform: 'darwin', resolve: () => undefined }).args, ['-c', 'ls | wc -l']);
    const w = planSpawn({ command: 'dir /b', args: [], shellLine: true }, win);
    assert.equal(w.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.deepEqual(w.args, ['/d', '/s', '/c', '"dir /b"']);
    assert.equal(w.windowsVerbatimArguments, true);
  });

  it('finds .cmd shims through PATHEXT on Windows and runs them through cmd.exe', () => {
    for (const [name, file] of [
      ['npx', `${NODE_DIR}\\npx.cmd`],
      ['gemini', `${USER_NPM}\\gemini.cmd`],
      ['NPX', `${NODE_DIR}\\npx.cmd`],
    ] as const) {
      const plan = planSpawn({ command: name, args: ['-y', 'pkg@1.2.3'] }, win);
      assert.equal(plan.via, 'cmd');
      assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
      assert.equal(plan.windowsHide, true);
      assert.equal(plan.windowsVerbatimArguments, true);
      const seen = throughCmd(plan.args, true);
      assert.deepEqual(
        seen.argv.map((a, i) => (i === 0 ? a.toLowerCase() : a)),
        [file.toLowerCase(), '-y', 'pkg@1.2.3'],
      );
      assert.deepEqual(seen.interpreted, []);
    }
  });

  it('runs .exe programs directly on Windows, arguments left to Node', () => {
    const plan = planSpawn({ command: 'uvx', args: ['--from', 'a b', 'x&y'] }, win);
    assert.deepEqual(plan, { file: 'C:\\Users\\me\\.local\\bin\\uvx.EXE', args: ['--from', 'a b', 'x&y'], windowsVerbatimArguments: false, windowsHide: true, via: 'direct' });
    assert.equal(planSpawn({ command: `${NODE_DIR}\\node.exe`, args: [] }, win).file, `${NODE_DIR}\\node.exe`);
  });

  it('starts an unknown command as given, so the error is a plain ENOENT', () => {
    const plan = planSpawn({ command: 'no-such-agent', args: ['x'] }, win);
    assert.equal(plan.via, 'direct');
    assert.equal(plan.file, 'no-such-agent');
  });

  it('never lets cmd.exe interpret metacharacters, quotes or spaces in arguments (shim and batch file)', () => {
    const hostile = [
      'a & calc',
      'x | y',
      '<in',
      '>out',
      '2>&1',
      '^',
      '^^',
      '%PATH%',
      '%USERNAME',
      'a%CD%b',
      '!x!',
      '(a)',
      'a "b" c',
      '"',
      '\\"&calc',
      'C:\\dir with spaces\\',
      'end\\',
      'q"&whoami&"',
      '',
      ' ',
      'tab\there',
      'ünïcödé ✓',
      ',;=',
      'a" & "b',
    ];
    for (const command of ['npx', 'C:\\tools\\run agent.bat']) {
      const plan = planSpawn({ command, args: hostile }, win);
      assert.equal(plan.via, 'cmd');
      const seen = throughCmd(plan.args, true);
      assert.deepEqual(seen.interpreted, [], `cmd.exe acted on something in ${plan.args[3]}`);
      assert.deepEqual(seen.argv.slice(1), hostile);
      assert.equal(seen.argv[0], command === 'npx' ? `${NODE_DIR}\\npx.CMD` : 'C:\\tools\\run agent.bat');
    }
  });

  it('(the cmd.exe model catches quoting that is not enough: escaped once, a batch file runs `whoami`)', () => {
    const once = `"${['"C:\\x.cmd"', quoteArgument('q"&whoami&"', false)].join(' ')}"`;
    assert.deepEqual(throughCmd(['/d', '/s', '/c', once], true).interpreted, ['&', '&']);
    assert.deepEqual(throughCmd(['/d', '/s', '/c', once], false).interpreted, []);
  });

  it('refuses an argument cmd.exe cannot carry (line break, NUL) instead of running something else', () => {
    for (const bad of ['a\nb', 'a\r\ncalc', 'a\0b']) {
      assert.throws(() => planSpawn({ command: 'npx', args: ['ok', bad] }, win), UnsafeArgumentError);
    }
    // An .exe gets them from Node unchanged.
    assert.equal(planSpawn({ command: 'uvx', args: ['a\nb'] }, win).via, 'direct');
  });

  it('looks commands up the way each platform does', () => {
    assert.deepEqual(pathCandidates('npx', { PATH: '/a:/b' }, 'linux'), ['/a/npx', '/b/npx']);
    assert.deepEqual(pathCandidates('npx', { Path: 'C:\\a;C:\\b', PATHEXT: '.EXE;.CMD' }, 'win32'), ['C:\\a\\npx.EXE', 'C:\\a\\npx.CMD', 'C:\\b\\npx.EXE', 'C:\\b\\npx.CMD']);
    assert.deepEqual(pathCandidates('agent.v2', { Path: 'C:\\a', PATHEXT: '.EXE' }, 'win32'), ['C:\\a\\agent.v2', 'C:\\a\\agent.v2.EXE']);
    assert.deepEqual(pathCandidates('tool.cmd', { Path: 'C:\\a', PATHEXT: '.EXE;.CMD' }, 'win32'), ['C:\\a\\tool.cmd']);
    assert.deepEqual(pathCandidates('.\\bin\\agent', { Path: 'C:\\a', PATHEXT: '.EXE' }, 'win32', 'C:\\ws'), ['C:\\ws\\bin\\agent.EXE']);
    assert.deepEqual(pathCandidates('./agent', { PATH: '/a' }, 'darwin', '/ws'), ['/ws/agent']);
  });

  it('runs the first candidate that is a file: any file on Windows (no execute bit), an executable one on POSIX', async () => {
    const probe = (files: Record<string, 'x' | '-'>): FileProbe => ({ isFile: (p) => p in files, isExecutable: (p) => files[p] === 'x' });
    // Node's folder on Windows holds `npx` (a POSIX shell script) beside `npx.cmd`: the shim is what runs.
    const nodeDir = probe({ 'C:\\Program Files\\nodejs\\npx': '-', 'C:\\Program Files\\nodejs\\npx.CMD': '-', 'C:\\Program Files\\nodejs\\npx.ps1': '-' });
    const winEnv = { Path: 'C:\\Program Files\\nodejs', PATHEXT: '.COM;.EXE;.BAT;.CMD' };
    assert.equal(resolveCommand('npx', winEnv, undefined, 'win32', nodeDir), 'C:\\Program Files\\nodejs\\npx.CMD');
    assert.equal(resolveCommand('npx.ps1', winEnv, undefined, 'win32', nodeDir), 'C:\\Program Files\\nodejs\\npx.ps1');
    const posix = probe({ '/a/agent': '-', '/b/agent': 'x' });
    assert.equal(resolveCommand('agent', { PATH: '/a:/b' }, undefined, 'linux', posix), '/b/agent');
    assert.equal(resolveCommand('agent', { PATH: '/a:/b' }, undefined, 'darwin', probe({ '/a/agent': '-' })), undefined);
    assert.equal(await findOnPath('agent', { PATH: '/a:/b' }, 'darwin', posix), '/b/agent');
    assert.equal(await findOnPath('agent', { Path: 'C:\\a', PATHEXT: '.EXE' }, 'win32', probe({ 'C:\\a\\agent.EXE': '-' })), 'C:\\a\\agent.EXE');
  });
});

describe('process tree kill plan', () => {
  it('signals the process group on POSIX and runs taskkill /T /F on Windows, from System32 by absolute path', () => {
    assert.deepEqual(treeKillPlan('linux', 4242, 'SIGTERM', {}), { kind: 'group', pgid: 4242, signal: 'SIGTERM' });
    assert.deepEqual(treeKillPlan('darwin', 7, 'SIGKILL', {}), { kind: 'group', pgid: 7, signal: 'SIGKILL' });
    assert.deepEqual(treeKillPlan('win32', 4242, 'SIGTERM', { SystemRoot: 'D:\\WINNT' }), {
      kind: 'command',
      file: 'D:\\WINNT\\System32\\taskkill.exe',
      args: ['/T', '/F', '/PID', '4242'],
    });
    assert.deepEqual(treeKillPlan('win32', 1, 'SIGTERM', {}), { kind: 'command', file: 'C:\\Windows\\System32\\taskkill.exe', args: ['/T', '/F', '/PID', '1'] });
  });

  it('falls back to ending the root itself when taskkill cannot run, or the group cannot be signalled', async () => {
    // Here there is no C:\Windows\System32\taskkill.exe: the spawn fails, as it would on a Windows without it.
    await new Promise<void>((resolve) => killTree('win32', 2 ** 22 + 7, 'SIGKILL', resolve));
    await new Promise<void>((resolve) => killTree('linux', 2 ** 22 + 7, 'SIGKILL', resolve));
  });
});
