/**
 * "ACP: Add Agent…" writes an `acpChat.agents` entry that works: a registry file (the format the catalog
 * ships in) names the demo agent as a binary for this platform; the entry the command writes is selected
 * and answers a prompt. The options argument answers the quick picks.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, until } from './util';
import { platformKey } from '../../src/common/agents/registry';

suite('Add Agent from the catalog', () => {
  test('writes a working acpChat.agents entry and makes it the default', async () => {
    const a = await api();
    const ext = vscode.extensions.getExtension('acp-chat.acp-chat');
    assert.ok(ext);
    const platform = platformKey(process.platform, process.arch);
    assert.ok(platform, 'a platform the registry knows');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-'));
    const registryFile = path.join(dir, 'registry.json');
    const target = { archive: 'demo-agent.tar.gz', cmd: process.execPath, args: [path.join(ext.extensionPath, 'dist', 'demo-agent.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
    fs.writeFileSync(registryFile, JSON.stringify({ version: '1.0.0', agents: [{ id: 'catalog-demo', name: 'Catalog Demo', version: '1.0.0', description: 'The demo agent, from a registry file', distribution: { binary: { [platform]: target } } }] }));

    const config = vscode.workspace.getConfiguration('acpChat');
    const before = { agents: config.inspect('agents')?.globalValue, defaultAgent: config.inspect('defaultAgent')?.globalValue };
    try {
      const id = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { registryFile, agentId: 'catalog-demo', makeDefault: true });
      assert.strictEqual(id, 'catalog-demo');
      const after = vscode.workspace.getConfiguration('acpChat');
      const written = (after.get<{ id: string }[]>('agents') ?? []).find((e) => e.id === 'catalog-demo');
      assert.deepStrictEqual(written, { id: 'catalog-demo', name: 'Catalog Demo', command: process.execPath, args: target.args, env: target.env });
      assert.strictEqual(after.get('defaultAgent'), 'catalog-demo');

      // The entry works: select it and get an answer.
      await vscode.commands.executeCommand('acpChat.selectAgent', 'catalog-demo');
      assert.strictEqual(a.service.activeSession().agent.id, 'catalog-demo');
      await a.sendPrompt('hello from the catalog');
      await until(() => a.transcript().some((e) => e.kind === 'agent_message'), 30_000, 'an answer from the catalog agent');

      // Adding it again does not overwrite: a second entry with a free id.
      const again = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { registryFile, agentId: 'catalog-demo', makeDefault: false });
      assert.strictEqual(again, 'catalog-demo-2');
    } finally {
      await vscode.commands.executeCommand('acpChat.selectAgent', 'demo');
      await config.update('agents', before.agents, vscode.ConfigurationTarget.Global);
      await config.update('defaultAgent', before.defaultAgent, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an unknown agent id is refused and nothing is written', async () => {
    await api();
    const before = JSON.stringify(vscode.workspace.getConfiguration('acpChat').inspect('agents')?.globalValue ?? null);
    const id = await vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { agentId: 'no-such-agent' });
    assert.strictEqual(id, undefined);
    assert.strictEqual(JSON.stringify(vscode.workspace.getConfiguration('acpChat').inspect('agents')?.globalValue ?? null), before);
  });
});
