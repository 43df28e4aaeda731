/**
 * "ACP: Add Agent…" against a registry served on 127.0.0.1 (acpChat.agentRegistry points at it): the
 * binary distribution for this platform is downloaded, checked against its SHA-256, unpacked into the
 * extension's global storage, and the `acpChat.agents` entry written for it starts and answers. The
 * "binary" is a shell launcher for the demo agent, so this runs where /bin/sh does. The options argument
 * answers the quick pick and the download consent.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, until } from './util';
import { platformKey } from '../../src/common/agents/registry';
import { fixtureServer, json, bytes, sha256, tarGz, type FixtureServer } from '../unit/registry/fixtures';

/** A shell word that stays one word whatever the path holds. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

suite('Add Agent from the registry', () => {
  let server: FixtureServer;
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let before: Record<'agents' | 'defaultAgent' | 'agentRegistry', unknown>;

  let target: { archive: string; sha256: string; cmd: string; env: Record<string, string> };

  suiteSetup(async () => {
    before = { agents: config().inspect('agents')?.globalValue, defaultAgent: config().inspect('defaultAgent')?.globalValue, agentRegistry: config().inspect('agentRegistry')?.globalValue };
    server = await fixtureServer();
    const ext = vscode.extensions.getExtension('acp-chat.acp-chat');
    assert.ok(ext);
    const platform = platformKey(process.platform, process.arch);
    assert.ok(platform, 'a platform the registry knows');
    const launcher = `#!/bin/sh\nexec ${sh(process.execPath)} ${sh(path.join(ext.extensionPath, 'dist', 'demo-agent.js'))} "$@"\n`;
    const archive = await tarGz([{ name: 'bin/catalog-demo', content: launcher, mode: 0o644 }]);
    server.route('/catalog-demo.tar.gz', bytes(archive));
    target = { archive: `${server.base}/catalog-demo.tar.gz`, sha256: sha256(archive), cmd: './bin/catalog-demo', env: { ELECTRON_RUN_AS_NODE: '1' } };
    server.route('/registry.json', json({ version: '1.0.0', agents: [{ id: 'catalog-demo', name: 'Catalog Demo', version: '1.0.0', description: 'The demo agent, from a registry', distribution: { binary: { [platform]: target } } }] }));
    await config().update('agentRegistry', `${server.base}/registry.json`, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('acpChat.selectAgent', 'demo');
    for (const [key, value] of Object.entries(before)) await config().update(key, value, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  test('installs a binary agent from the registry, writes its entry, and the entry works', async function () {
    if (process.platform === 'win32') this.skip();
    const a = await api();
    const id = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { agentId: 'catalog-demo', makeDefault: true, confirmDownload: true });
    assert.strictEqual(id, 'catalog-demo');
    assert.strictEqual(server.hits.get('/catalog-demo.tar.gz'), 1);
    const written = (config().get<{ id: string; command: string }[]>('agents') ?? []).find((e) => e.id === 'catalog-demo');
    assert.ok(written);
    assert.ok(path.isAbsolute(written.command) && written.command.endsWith(path.join('agents', 'catalog-demo', '1.0.0', 'bin', 'catalog-demo')), written.command);
    assert.deepStrictEqual(written, { id: 'catalog-demo', name: 'Catalog Demo', command: written.command, args: [], env: target.env });
    assert.ok(fs.statSync(written.command).mode & 0o100, 'the command is executable');
    assert.strictEqual(config().get('defaultAgent'), 'catalog-demo');

    // The entry works: select it and get an answer.
    await vscode.commands.executeCommand('acpChat.selectAgent', 'catalog-demo');
    assert.strictEqual(a.service.activeSession().agent.id, 'catalog-demo');
    await a.sendPrompt('hello from the registry');
    await until(() => a.transcript().some((e) => e.kind === 'agent_message'), 30_000, 'an answer from the installed agent');

    // Adding it again does not overwrite: a second entry with a free id; the registry comes from the cache.
    const again = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { agentId: 'catalog-demo', makeDefault: false, confirmDownload: true });
    assert.strictEqual(again, 'catalog-demo-2');
    assert.strictEqual(server.hits.get('/registry.json'), 1, 'the cached registry was used');
  });

  test('declining the download writes nothing', async () => {
    await api();
    const agentsBefore = JSON.stringify(config().inspect('agents')?.globalValue ?? null);
    const downloads = server.hits.get('/catalog-demo.tar.gz') ?? 0;
    const id = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { agentId: 'catalog-demo', confirmDownload: false });
    assert.strictEqual(id, undefined);
    assert.strictEqual(server.hits.get('/catalog-demo.tar.gz') ?? 0, downloads, 'nothing downloaded');
    assert.strictEqual(JSON.stringify(config().inspect('agents')?.globalValue ?? null), agentsBefore);
  });

  test('an unknown agent id is refused and nothing is written', async () => {
    await api();
    await config().update('agentRegistry', '', vscode.ConfigurationTarget.Global);
    const agentsBefore = JSON.stringify(config().inspect('agents')?.globalValue ?? null);
    const id = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { agentId: 'no-such-agent' });
    assert.strictEqual(id, undefined);
    assert.strictEqual(JSON.stringify(config().inspect('agents')?.globalValue ?? null), agentsBefore);
  });
});
