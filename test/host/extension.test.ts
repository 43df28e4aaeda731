/**
 * The extension inside a real VS Code extension host (code-server's Node host here, desktop VS Code under
 * @vscode/test-electron). Written against the extension's public contract only (id, manifest, commands and
 * the API object activate() returns), so it checks what users and other extensions see.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { Entry } from '../../src/common/store/model';
import { until } from '../helpers/until.mjs';

const EXTENSION_ID = 'acp-chat.acp-chat';
const DEMO_REPLY = 'Hello from the ACP Chat demo agent.';
/** The chat panel's webview viewType (CHAT_VIEW_TYPE in src/vscode/panel/chatPanel.ts; repeated so the suite tests the contract). */
const CHAT_VIEW_TYPE = 'acpChat.chat';

/** The part of the API object (see src/vscode/api.ts) this suite relies on. */
interface ChatApi {
  whenPanelReady(): Promise<void>;
  transcript(): readonly Entry[];
  sendPrompt(text: string): Promise<void>;
}

function extension(): vscode.Extension<ChatApi> {
  const ext = vscode.extensions.getExtension<ChatApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this host`);
  return ext;
}

async function activeApi(): Promise<ChatApi> {
  const ext = extension();
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no API object');
  return api;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function textOf(entry: Entry): string {
  if (entry.kind === 'tool_call') return entry.title;
  if (entry.kind === 'elicitation') return entry.message;
  if (entry.kind === 'subagent') return entry.title ?? '';
  if (entry.kind === 'compaction') return entry.status;
  return entry.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function webviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview);
}

suite('ACP Chat in the extension host', () => {
  test('the extension activates and returns the chat API', async () => {
    const api = await activeApi();
    console.log(`acp-chat: vscode ${vscode.version}, node ${process.version}, app ${vscode.env.appName}, remote ${vscode.env.remoteName ?? '-'}`);
    assert.strictEqual(extension().isActive, true);
    assert.strictEqual(typeof api.whenPanelReady, 'function');
    assert.strictEqual(typeof api.transcript, 'function');
    assert.strictEqual(typeof api.sendPrompt, 'function');
    assert.ok(Array.isArray(api.transcript()), 'transcript() is not an array');
  });

  test('it runs where the code is (extensionKind workspace)', () => {
    const ext = extension();
    const manifest = ext.packageJSON as { extensionKind?: unknown };
    assert.deepStrictEqual(manifest.extensionKind, ['workspace']);
    assert.strictEqual(ext.extensionKind, vscode.ExtensionKind.Workspace);
  });

  test('the chat commands are registered with their palette titles', async () => {
    await activeApi();
    const all = await vscode.commands.getCommands(true);
    const manifest = extension().packageJSON as { contributes?: { commands?: { command: string; title: string; category?: string }[] } };
    const titles = new Map((manifest.contributes?.commands ?? []).map((c) => [c.command, c.category ? `${c.category}: ${c.title}` : c.title]));
    for (const [id, title] of [
      ['acpChat.openChat', 'ACP: Open Chat'],
      ['acpChat.selectAgent', 'ACP: Select Agent'],
    ] as const) {
      assert.ok(all.includes(id), `${id} is not registered`);
      assert.strictEqual(titles.get(id), title, `${id} has the wrong Command Palette title`);
    }
  });

  test('acpChat.openChat opens the chat panel as a webview tab', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('acpChat.openChat');
    // "ready" means the webview's script ran in the browser and reached the extension: a real round trip.
    await withTimeout(api.whenPanelReady(), 30_000, 'the chat webview never became ready');
    // The tab input's viewType may carry a workbench prefix (mainThreadWebview-<viewType>), hence the suffix match.
    // Not found in time: the assertion below says what tabs there are.
    const tab = await until(() => webviewTabs().find((t) => t.isActive && (t.input as vscode.TabInputWebview).viewType.endsWith(CHAT_VIEW_TYPE)), 'the chat tab', 10_000).catch(
      () => undefined,
    );
    assert.ok(
      tab,
      `no active webview tab after acpChat.openChat (webview tabs: ${
        webviewTabs()
          .map((t) => `${t.label} [${(t.input as vscode.TabInputWebview).viewType}]`)
          .join(', ') || 'none'
      })`,
    );
  });

  test('a demo-agent turn ends with the reply in the transcript', async () => {
    const api = await activeApi();
    const prompt = `host suite prompt ${Date.now()}`;
    await withTimeout(api.sendPrompt(prompt), 60_000, 'sendPrompt() did not settle');
    // sendPrompt may settle when the turn is sent or when it ends; wait for the reply either way.
    // Earlier suites may have chatted in this session already: the reply is the first one after this prompt.
    const isPrompt = (e: ReturnType<typeof api.transcript>[number]) => e.kind === 'user_message' && textOf(e).includes(prompt);
    const reply = await until(
      () => {
        const all = api.transcript();
        const at = all.findIndex(isPrompt);
        return at < 0 ? undefined : all.slice(at + 1).find((e) => e.kind === 'agent_message' && textOf(e).includes(DEMO_REPLY));
      },
      'the reply',
      30_000,
    ).catch(() => undefined);
    const entries = api.transcript();
    const kinds = entries.map((e) => e.kind).join(', ');
    assert.ok(reply, `no agent_message containing "${DEMO_REPLY}" (entries: ${kinds || 'none'})`);
    const user = entries.findIndex((e) => e.kind === 'user_message' && textOf(e).includes(prompt));
    assert.ok(user >= 0, `the prompt is not in the transcript as a user_message (entries: ${kinds})`);
    assert.ok(entries.indexOf(reply) > user, 'the reply comes before the prompt');
    assert.strictEqual(new Set(entries.map((e) => e.key)).size, entries.length, 'entry keys are not unique');
  });
});
