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
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { platformKey } from '../../src/common/agents/registry';
import type { ConsentPrompt } from '../../src/vscode/agents/addAgent';
import type { AgentItem, PickerView } from '../../src/vscode/agents/agentPicker';
import { fixtureServer, json, bytes, sha256, tarGz, type FixtureServer } from '../unit/registry/fixtures';

/** A shell word that stays one word whatever the path holds. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

suite('Add Agent from the registry', () => {
  let server: FixtureServer;
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let before: Record<'agents' | 'defaultAgent' | 'agentRegistry', unknown>;

  let target: { archive: string; sha256: string; cmd: string; env: Record<string, string> };

  suiteSetup(async () => {
    before = {
      agents: config().inspect('agents')?.globalValue,
      defaultAgent: config().inspect('defaultAgent')?.globalValue,
      agentRegistry: config().inspect('agentRegistry')?.globalValue,
    };
    server = await fixtureServer();
    const ext = vscode.extensions.getExtension('acp-chat.acp-chat');
    assert.ok(ext);
    const platform = platformKey(process.platform, process.arch);
    assert.ok(platform, 'a platform the registry knows');
    const launcher = `#!/bin/sh\nexec ${sh(process.execPath)} ${sh(path.join(ext.extensionPath, 'dist', 'demo-agent.js'))} "$@"\n`;
    const archive = await tarGz([{ name: 'bin/catalog-demo', content: launcher, mode: 0o644 }]);
    server.route('/catalog-demo.tar.gz', bytes(archive));
    target = { archive: `${server.base}/catalog-demo.tar.gz`, sha256: sha256(archive), cmd: './bin/catalog-demo', env: { ELECTRON_RUN_AS_NODE: '1' } };
    server.route(
      '/registry.json',
      json({
        version: '1.0.0',
        agents: [{ id: 'catalog-demo', name: 'Catalog Demo', version: '1.0.0', description: 'The demo agent, from a registry', distribution: { binary: { [platform]: target } } }],
      }),
    );
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
    await until(() => a.transcript().some((e) => e.kind === 'agent_message'), 'an answer from the installed agent', 30_000);

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

/**
 * The picker and the consent dialog as a user meets them, with the test standing in for the user through
 * the `ui` option: the real picker logic (busy, fill, Refresh, accept) drives a fake QuickPick, and the
 * consent prompt the user would read is recorded and answered.
 */
suite('Add Agent picker: Refresh and the download consent', () => {
  let server: FixtureServer;
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let before: Record<'agents' | 'defaultAgent' | 'agentRegistry', unknown>;
  let downloads = 0;
  let registryV2: unknown;

  suiteSetup(async () => {
    before = {
      agents: config().inspect('agents')?.globalValue,
      defaultAgent: config().inspect('defaultAgent')?.globalValue,
      agentRegistry: config().inspect('agentRegistry')?.globalValue,
    };
    server = await fixtureServer();
    const platform = platformKey(process.platform, process.arch);
    assert.ok(platform);
    const archive = await tarGz([{ name: 'bin/fresh-agent', content: '#!/bin/sh\necho fresh\n', mode: 0o755 }]);
    const body = bytes(archive);
    // Only a GET downloads; the consent dialog's size comes from a HEAD request.
    server.route('/fresh.tar.gz', (req, res) => {
      if (req.method === 'GET') downloads++;
      body(req, res);
    });
    const first = { id: 'old-agent', name: 'Old Agent', version: '1.0.0', description: 'in the registry from the start', distribution: { npx: { package: 'old-agent' } } };
    server.route('/registry.json', json({ version: '1.0.0', agents: [first] }));
    registryV2 = {
      version: '1.0.0',
      agents: [
        first,
        {
          id: 'fresh-agent',
          name: 'Fresh Agent',
          version: '2.1.0',
          description: 'added to the registry later',
          distribution: { binary: { [platform]: { archive: `${server.base}/fresh.tar.gz`, cmd: './bin/fresh-agent' } } },
        },
      ],
    };
    await config().update('agentRegistry', `${server.base}/registry.json`, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    for (const [key, value] of Object.entries(before)) await config().update(key, value, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  /** Opens Add Agent…, waits for the list, presses Refresh once the registry changed, picks Fresh Agent. */
  async function addThroughPicker(answer: boolean): Promise<{ id: string | undefined; prompts: ConsentPrompt[]; labels: string[][] }> {
    const prompts: ConsentPrompt[] = [];
    const labels: string[][] = [];
    const picker = new FakePicker();
    const done = vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', {
      makeDefault: false,
      ui: {
        createPicker: () => picker,
        confirmDownload: async (p: ConsentPrompt) => {
          prompts.push(p);
          return answer;
        },
      },
    });
    await until(() => picker.shown && !picker.busy && picker.items.some((i) => i.label === 'Old Agent'), 'the first list', 20_000);
    labels.push(picker.items.map((i) => i.label));
    server.route('/registry.json', json(registryV2));
    const refresh = picker.buttons[0];
    assert.ok(refresh, 'the picker has a Refresh button');
    picker.press(refresh);
    const fresh = await until(() => !picker.busy && picker.items.find((i) => i.candidate?.agent.id === 'fresh-agent'), 'the refreshed list', 20_000);
    labels.push(picker.items.map((i) => i.label));
    picker.accept(fresh);
    return { id: await done, prompts, labels };
  }

  test('Refresh fetches the changed registry; declining the consent downloads nothing, accepting installs', async function () {
    if (process.platform === 'win32') this.skip();
    await api();
    const fetchesBefore = server.hits.get('/registry.json') ?? 0;
    const declined = await addThroughPicker(false);
    assert.strictEqual(declined.id, undefined);
    assert.ok(!declined.labels[0]?.includes('Fresh Agent'), 'not in the list before Refresh');
    assert.ok(declined.labels[1]?.includes('Fresh Agent'), 'in the list after Refresh');
    assert.ok((server.hits.get('/registry.json') ?? 0) >= fetchesBefore + 1, 'Refresh fetched the registry again');
    const shown = declined.prompts[0];
    assert.ok(shown, 'the consent dialog was shown');
    const prompt = { message: shown.message, detail: shown.lines.join('\n') };
    assert.match(prompt.message, /Download and install Fresh Agent 2\.1\.0\?/);
    assert.match(prompt.detail, /^Size: 1 KB$/m, 'the size the server announces');
    assert.match(prompt.detail, new RegExp(`^From: 127\\.0\\.0\\.1:\\d+ \\(`, 'm'), 'the source host');
    assert.match(prompt.detail, new RegExp(`^Unpacked into: .*${path.join('agents', 'fresh-agent', '2.1.0').replace(/[\\/.]/g, '\\$&')}$`, 'm'), 'where it is unpacked');
    assert.strictEqual(downloads, 0, 'declined: nothing downloaded');
    assert.ok(!(config().get<{ id: string }[]>('agents') ?? []).some((e) => e.id === 'fresh-agent'), 'declined: nothing written');

    const accepted = await addThroughPicker(true);
    assert.strictEqual(accepted.id, 'fresh-agent');
    assert.strictEqual(downloads, 1);
    const written = (config().get<{ id: string; command: string }[]>('agents') ?? []).find((e) => e.id === 'fresh-agent');
    assert.ok(written && written.command.endsWith(path.join('agents', 'fresh-agent', '2.1.0', 'bin', 'fresh-agent')), JSON.stringify(written));
    assert.ok(fs.existsSync(written.command), 'installed');
  });

  test('offline (issue 38 item 7): the first agent is a row of its own, the reason is in words in the title, the placeholder is short', async () => {
    await api();
    const saved = config().inspect<string>('agentRegistry')?.globalValue;
    // A port nothing listens on any more: the connection is refused, as when offline.
    const closed = await fixtureServer();
    const url = `${closed.base}/offline-registry.json`;
    await closed.close();
    await config().update('agentRegistry', url, vscode.ConfigurationTarget.Global);
    const picker = new FakePicker();
    const done = vscode.commands.executeCommand<string | undefined>('acpChat.addAgent', { ui: { createPicker: () => picker } });
    try {
      await until(() => picker.shown && !picker.busy && picker.items.length > 0, 'the offline list', 20_000);
      assert.ok(picker.items[0]?.candidate, `the first row is an agent, not a separator over it (${picker.items[0]?.label})`);
      assert.ok(!picker.items.some((i) => i.kind === vscode.QuickPickItemKind.Separator), 'no separator');
      assert.match(picker.title ?? '', /offline list .* could not be fetched: (the server refused the connection|no network connection)/);
      assert.doesNotMatch(picker.title ?? '', /fetch failed/);
      assert.ok((picker.placeholder ?? '').length <= 60 && !/https?:/.test(picker.placeholder ?? ''), `a short placeholder (${picker.placeholder})`);
    } finally {
      picker.hide();
      await done;
      await config().update('agentRegistry', saved, vscode.ConfigurationTarget.Global);
    }
  });
});

/** Stands in for VS Code's QuickPick: holds what the picker sets, and fires what a user would do. */
class FakePicker implements PickerView {
  title: string | undefined;
  placeholder: string | undefined;
  matchOnDescription = false;
  matchOnDetail = false;
  buttons: readonly vscode.QuickInputButton[] = [];
  busy = false;
  items: readonly AgentItem[] = [];
  selectedItems: readonly AgentItem[] = [];
  shown = false;
  private readonly button = new vscode.EventEmitter<vscode.QuickInputButton>();
  private readonly accepted = new vscode.EventEmitter<void>();
  private readonly hidden = new vscode.EventEmitter<void>();
  readonly onDidTriggerButton = this.button.event;
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hidden.event;
  show(): void {
    this.shown = true;
  }
  dispose(): void {
    this.button.dispose();
    this.accepted.dispose();
    this.hidden.dispose();
  }
  press(b: vscode.QuickInputButton): void {
    this.button.fire(b);
  }
  hide(): void {
    this.hidden.fire();
  }
  accept(item: AgentItem): void {
    this.selectedItems = [item];
    this.accepted.fire();
  }
}
