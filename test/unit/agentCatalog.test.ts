import { test } from 'node:test';
import assert from 'node:assert/strict';
import bundled from '../../src/common/agents/catalog.json';
import { archiveKind, freeId, launchPlan, parseCatalog, platformKey, safeIconUrl } from '../../src/common/agents/registry';
import { zAgentConfig } from '../../src/common/config/settings';

test('the bundled catalog parses cleanly (as the built-in list: no versions) and lists the known agents', () => {
  const c = parseCatalog(bundled, { builtIn: true });
  assert.deepEqual(c.problems, []);
  assert.ok(
    c.agents.every((a) => a.version === undefined),
    'the built-in list pins no version',
  );
  // A live registry's agent must have one.
  assert.match(parseCatalog(bundled).problems[0] ?? '', /claude-code\) skipped: version/);
  assert.deepEqual(
    c.agents.map((a) => a.name),
    ['Claude Code', 'Gemini CLI', 'Codex', 'OpenCode', 'Qwen Code', 'GitHub Copilot CLI'],
  );
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
  assert.deepEqual(launchPlan(agent({ uvx: { package: 'fast-agent-acp', cmd: 'fast-agent' } }), null)?.entry, {
    id: 'x',
    name: 'X',
    command: 'uvx',
    args: ['--from', 'fast-agent-acp', 'fast-agent'],
    env: {},
  });
  const bin = agent({ binary: { 'linux-x86_64': { archive: 'https://example.invalid/a.tar.gz', cmd: './goose', args: ['acp'] } } });
  assert.deepEqual(launchPlan(bin, 'linux-x86_64'), {
    kind: 'binary',
    entry: { id: 'x', name: 'X', command: './goose', args: ['acp'], env: {} },
    target: { archive: 'https://example.invalid/a.tar.gz', cmd: './goose', args: ['acp'] },
    archive: 'tar.gz',
  });
  assert.equal(launchPlan(bin, 'darwin-aarch64'), null, 'no binary for this platform');
});

test('a malformed agent is skipped with the reason; a wrong envelope is an error', () => {
  const c = parseCatalog({
    version: '1',
    agents: [
      { id: 'ok', name: 'Ok', version: '1', description: '', distribution: { npx: { package: 'p' } } },
      { id: 'bad', name: 'Bad', version: '1', description: '', distribution: {} },
      42,
    ],
  });
  assert.deepEqual(
    c.agents.map((a) => a.id),
    ['ok'],
  );
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

test('archive formats by name; bzip2 and installers are refused, anything else is a bare executable', () => {
  assert.equal(archiveKind('https://x/a/agent-1.0-linux.tar.gz'), 'tar.gz');
  assert.equal(archiveKind('https://x/agent.TGZ?download=1'), 'tar.gz');
  assert.equal(archiveKind('https://x/agent-windows.zip#frag'), 'zip');
  for (const u of ['https://x/a.tar.bz2', 'https://x/A.TBZ2?x=1']) assert.equal(archiveKind(u), 'tar.bz2', u);
  for (const u of ['https://x/a.tar.xz', 'https://x/a.dmg', 'https://x/a.msi']) assert.equal(archiveKind(u), 'unsupported', u);
  assert.equal(archiveKind('https://x/releases/download/v1/agent'), 'raw');
});

test('registry icons: https and image data URIs only', () => {
  assert.equal(safeIconUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/a.svg'), 'https://cdn.agentclientprotocol.com/registry/v1/latest/a.svg');
  assert.equal(safeIconUrl('data:image/svg+xml;base64,PHN2Zy8+'), 'data:image/svg+xml;base64,PHN2Zy8+');
  for (const bad of [
    'http://x/a.svg',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'command:workbench.action.terminal.new',
    'not a url',
    '',
    undefined,
  ]) {
    assert.equal(safeIconUrl(bad), undefined, String(bad));
  }
});
