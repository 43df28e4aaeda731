import { test } from 'node:test';
import assert from 'node:assert/strict';
import bundled from '../../src/common/agents/catalog.json';
import { freeId, launchPlan, parseCatalog, platformKey } from '../../src/common/agents/registry';
import { zAgentConfig } from '../../src/common/config/settings';

test('the bundled catalog parses cleanly and lists the known agents', () => {
  const c = parseCatalog(bundled);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(c.agents.map((a) => a.name), ['Claude Code', 'Gemini CLI', 'Codex', 'OpenCode', 'Qwen Code', 'GitHub Copilot CLI']);
  for (const a of c.agents) {
    const plan = launchPlan(a, 'linux-x86_64');
    assert.ok(plan, a.id);
    // Every entry is one the settings parser accepts as it is.
    assert.deepEqual(zAgentConfig.parse(plan.entry), { ...plan.entry, args: plan.entry.args, env: plan.entry.env });
  }
});

test('npx and uvx distributions become runner entries; cmd selects another binary of the package', () => {
  const agent = (distribution: unknown) => parseCatalog({ version: '1', agents: [{ id: 'x', name: 'X', version: '1', description: 'd', distribution }] }).agents[0]!;
  assert.deepEqual(launchPlan(agent({ npx: { package: '@a/b', args: ['--acp'], env: { K: 'v' } } }), null), {
    kind: 'package',
    entry: { id: 'x', name: 'X', command: 'npx', args: ['-y', '@a/b', '--acp'], env: { K: 'v' } },
    program: 'npx',
    requires: 'Node.js (npx); the package @a/b is fetched on first start',
  });
  assert.deepEqual(launchPlan(agent({ npx: { package: 'opencode-ai', cmd: 'opencode', args: ['acp'] } }), null)?.entry.args, ['-y', '--package', 'opencode-ai', 'opencode', 'acp']);
  assert.deepEqual(launchPlan(agent({ uvx: { package: 'fast-agent-acp', cmd: 'fast-agent' } }), null)?.entry, { id: 'x', name: 'X', command: 'uvx', args: ['--from', 'fast-agent-acp', 'fast-agent'], env: {} });
  const bin = agent({ binary: { 'linux-x86_64': { archive: 'https://example.invalid/a.tar.gz', cmd: './goose', args: ['acp'] } } });
  assert.deepEqual(launchPlan(bin, 'linux-x86_64'), { kind: 'binary', entry: { id: 'x', name: 'X', command: './goose', args: ['acp'], env: {} }, target: { archive: 'https://example.invalid/a.tar.gz', cmd: './goose', args: ['acp'] }, archive: 'tar.gz' });
  assert.equal(launchPlan(bin, 'darwin-aarch64'), null, 'no binary for this platform');
});

test('a malformed agent is skipped with the reason; a wrong envelope is an error', () => {
  const c = parseCatalog({ version: '1', agents: [{ id: 'ok', name: 'Ok', version: '1', description: '', distribution: { npx: { package: 'p' } } }, { id: 'bad', name: 'Bad', version: '1', description: '', distribution: {} }, 42] });
  assert.deepEqual(c.agents.map((a) => a.id), ['ok']);
  assert.equal(c.problems.length, 2);
  assert.match(c.problems[0]!, /\(bad\) skipped: .*at least one distribution/);
  assert.throws(() => parseCatalog({ agents: 'nope' }), /Not an ACP agent registry/);
});

test('platform keys and free ids', () => {
  assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
  assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
  assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
  assert.equal(platformKey('freebsd', 'x64'), null);
  assert.equal(freeId('codex', ['demo']), 'codex');
  assert.equal(freeId('codex', ['codex', 'codex-2']), 'codex-3');
});
