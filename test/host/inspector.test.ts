/**
 * The protocol inspector and the debug bundle in the extension host: the exact JSON-RPC lines behind an
 * entry, the paired protocol log, the capability report, and one exported file with everything.
 */
import * as assert from 'assert';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, ensureDemoTurn, lastDebugView, parseJsonc } from './util';
import { until } from '../helpers/until.mjs';

const activeText = () => lastDebugView().text;
const chatTab = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('acpChat.chat');

suite('Protocol inspector and debug bundle', () => {
  test('Show Protocol Messages opens exactly the lines that built an entry', async () => {
    const a = await api();
    await a.sendPrompt('inspector prompt');
    const sid = a.service.activeSession().sessionId!;
    const answer = a.transcript().find((e) => e.kind === 'agent_message' && e.messageId !== null);
    assert.ok(answer && answer.kind === 'agent_message');
    const node = a.service.tree.entryNodeFor(sid, answer.key);
    assert.ok(node);
    await vscode.commands.executeCommand('acpChat.showProtocolMessages', node);
    const text = activeText();
    const chunks = text.match(/← notification session\/update agent_message_chunk/g) ?? [];
    assert.strictEqual(chunks.length, answer.stats.chunks, `one line per chunk (${answer.stats.chunks})`);
    assert.ok(text.includes(`"messageId": "${answer.messageId}"`));
    assert.ok(!text.includes('"sessionUpdate": "tool_call"'), 'no lines of other entries');
    assert.match(text, new RegExp(`of ${answer.stats.chunks} messages`));
    const parsed = parseJsonc(text);
    assert.ok(Array.isArray(parsed) && parsed.length === (text.match(/^ {2}\/\/ #/gm) ?? []).length, 'one valid JSON array, one element per message');
    assert.strictEqual(lastDebugView().language, 'jsonc');
    assert.match(lastDebugView().title, /^Messages · agent_message /);
  });

  test('the debug views share one place: no new columns, no chat squeezed, Markdown rendered', async () => {
    const a = await api();
    await ensureDemoTurn(a);
    const groupsBefore = vscode.window.tabGroups.all.length;
    for (const c of ['acpChat.showProtocolLog', 'acpChat.showAgentCapabilities', 'acpChat.showProtocolLog', 'acpChat.showAgentCapabilities'])
      await vscode.commands.executeCommand(c);
    const groups = vscode.window.tabGroups.all;
    assert.ok(groups.length <= Math.max(2, groupsBefore), `four debug views opened ${groups.length - groupsBefore} new groups`);
    const isDebugView = (t: vscode.Tab) =>
      (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'acp-chat') || (t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview'));
    const debugTabs = groups.flatMap((g) => g.tabs.filter(isDebugView).map((t) => ({ t, column: g.viewColumn })));
    const columns = new Set(debugTabs.map((x) => x.column));
    assert.strictEqual(columns.size, 1, 'all in one group');
    const preview = await until(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview')),
      'the rendered capabilities',
      10_000,
    );
    assert.ok(!chatTab(preview));
    assert.ok(
      vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'acp-chat' && d.languageId === 'markdown'),
      'the raw Markdown is a document, one click away',
    );
    await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter(isDebugView));
  });

  test('Show Protocol Log pairs requests and responses with timings', async () => {
    await ensureDemoTurn(await api());
    await vscode.commands.executeCommand('acpChat.showProtocolLog');
    const text = activeText();
    assert.match(text, /→ request initialize id=\d+/);
    assert.match(text, /← response initialize id=\d+ \(answers #\d+ after \d+ ms\)/);
    assert.match(text, /← response session\/prompt id=\d+ \(answers #\d+ after \d+ ms\) stopReason end_turn/);
    assert.ok(Array.isArray(parseJsonc(text)), 'valid JSON with Comments: one array');
    assert.match(lastDebugView().title, /^Protocol log · /);
  });

  test('Show Agent Capabilities reports what the demo agent advertised and does', async () => {
    await ensureDemoTurn(await api());
    await vscode.commands.executeCommand('acpChat.showAgentCapabilities');
    const text = activeText();
    assert.match(text, /\| session\/load \| yes \|/);
    assert.match(text, /\| agent_message_chunk \| \d+ \| \d+ \|/);
  });

  test('Export Debug Bundle writes the capture, the store, capabilities and settings to one file', async () => {
    const a = await api();
    await a.sendPrompt('something for the bundle');
    const target = path.join(os.tmpdir(), `acp-chat-bundle-${Date.now()}.json`);
    await vscode.commands.executeCommand('acpChat.exportDebugBundle', target);
    const bundle = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(target)))) as Record<string, unknown>;
    assert.strictEqual(bundle['format'], 'acp-chat-debug-bundle');
    assert.strictEqual(bundle['sessionId'], a.service.activeSession().sessionId);
    assert.ok(Array.isArray(bundle['capture']) && (bundle['capture'] as unknown[]).length > 10, 'the capture is included');
    assert.ok((bundle['agentCapabilities'] as Record<string, unknown>)['loadSession'] === true);
    const store = bundle['store'] as { sessions?: unknown[] };
    assert.ok(Array.isArray(store.sessions) && store.sessions.length >= 1, 'the store state is included');
    assert.ok(typeof bundle['settings'] === 'object');
    const log = bundle['log'] as string[];
    assert.ok(Array.isArray(log) && log.some((l) => /\[demo\] .*initialized, protocol 1/.test(l)), 'the log is included');
  });
});
