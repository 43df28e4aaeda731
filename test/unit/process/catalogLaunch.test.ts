/** The catalog's launch entries on each platform: the right archive, and npx/uvx through the spawn plan. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bundled from '../../../src/common/agents/catalog.json';
import { launchPlan, parseCatalog, PLATFORMS } from '../../../src/common/agents/registry';
import { pathCandidates } from '../../../src/node/findOnPath';
import { planSpawn, type SpawnHost } from '../../../src/node/process/spawnPlan';
import { argv, cmdPass } from './cmdExe';

const agent = (distribution: unknown) => parseCatalog({ version: '1', agents: [{ id: 'x', name: 'X', version: '1', description: 'd', distribution }] }).agents[0]!;
const archive = (key: string) => ({ archive: `https://example.invalid/${key}.zip`, cmd: key.startsWith('windows') ? '.\\goose.exe' : './goose', args: ['acp'] });

const FILES = new Set(['c:\\node\\npx.cmd', 'c:\\uv\\uvx.exe', 'c:\\bin\\goose.exe']);
const win: SpawnHost = {
  platform: 'win32',
  comspec: 'cmd.exe',
  resolve: (c) => pathCandidates(c, { Path: 'C:\\node;C:\\uv;C:\\bin', PATHEXT: '.EXE;.CMD' }, 'win32').find((f) => FILES.has(f.toLowerCase())),
};

describe('catalog launch', () => {
  it('picks the archive for the platform and arch, falling back to x86_64 only where the OS emulates it', () => {
    const all = agent({ binary: Object.fromEntries(PLATFORMS.map((k) => [k, archive(k)])) });
    const archiveOf = (plan: ReturnType<typeof launchPlan>) => (plan?.kind === 'binary' ? plan.target.archive : undefined);
    for (const k of PLATFORMS) assert.equal(archiveOf(launchPlan(all, k)), `https://example.invalid/${k}.zip`);
    const intelOnly = agent({ binary: { 'windows-x86_64': archive('windows-x86_64'), 'darwin-x86_64': archive('darwin-x86_64'), 'linux-x86_64': archive('linux-x86_64') } });
    assert.match(archiveOf(launchPlan(intelOnly, 'windows-aarch64')) ?? '', /windows-x86_64\.zip/);
    assert.match(archiveOf(launchPlan(intelOnly, 'darwin-aarch64')) ?? '', /darwin-x86_64\.zip/);
    assert.equal(launchPlan(intelOnly, 'linux-aarch64'), null, 'Linux on ARM does not run x86_64 builds');
    assert.equal(launchPlan(intelOnly, null), null);
    assert.deepEqual(launchPlan(all, 'windows-x86_64')!.entry, { id: 'x', name: 'X', command: '.\\goose.exe', args: ['acp'], env: {} });
  });

  it('every bundled agent starts on Windows through cmd.exe with its arguments intact, and as given on POSIX', () => {
    for (const a of parseCatalog(bundled, { builtIn: true }).agents) {
      const plan = launchPlan(a, 'windows-x86_64')!;
      const spawn = planSpawn({ command: plan.entry.command, args: plan.entry.args }, win);
      assert.equal(spawn.via, 'cmd', a.id);
      const line = cmdPass(String(spawn.args[3]).slice(1, -1), {}, true);
      const seen = argv(cmdPass(line.text, {}, false).text);
      assert.deepEqual(seen, [`C:\\node\\npx.CMD`, ...plan.entry.args], a.id);
      const posix = planSpawn({ command: plan.entry.command, args: plan.entry.args }, { platform: 'darwin', resolve: () => undefined });
      assert.deepEqual([posix.file, ...posix.args], [plan.entry.command, ...plan.entry.args]);
    }
  });

  it('uvx and an installed binary run directly on Windows', () => {
    const uvx = launchPlan(agent({ uvx: { package: 'fast-agent-acp', cmd: 'fast-agent' } }), 'windows-x86_64')!;
    assert.deepEqual(planSpawn({ command: uvx.entry.command, args: uvx.entry.args }, win), {
      file: 'C:\\uv\\uvx.EXE',
      args: ['--from', 'fast-agent-acp', 'fast-agent'],
      windowsVerbatimArguments: false,
      windowsHide: true,
      via: 'direct',
    });
    // Add Agent writes the absolute path of the unpacked command.
    const bin = launchPlan(agent({ binary: { 'windows-x86_64': archive('windows-x86_64') } }), 'windows-x86_64')!;
    assert.equal(planSpawn({ command: 'C:\\bin\\goose.exe', args: bin.entry.args }, win).file, 'C:\\bin\\goose.exe');
  });
});
