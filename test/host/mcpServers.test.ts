/**
 * MCP servers the user chooses: "ACP: Choose MCP Servers for This Chat" (given its choice as the command's
 * argument, which skips the quick pick) keeps the choice in the chat's record and reopens the running
 * session with it (the demo agent resumes), said in the chat; VS Code's user mcp.json is used once
 * acpChat.useVSCodeMcpServers says yes. The demo agent's /setup lists the servers its session was opened with.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import type { Entry } from '../../src/common/store/model';

const answerText = (e: Entry | undefined) => (e && e.kind === 'agent_message' ? e.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '');
const stdio = (name: string) => ({ name, command: '/bin/true', args: [], env: [] });

suite('MCP servers', () => {
  const config = () => vscode.workspace.getConfiguration('acpChat');
  let before: { servers: unknown; use: unknown };

  suiteSetup(() => {
    before = { servers: config().inspect('mcpServers')?.globalValue, use: config().inspect('useVSCodeMcpServers')?.globalValue };
  });
  suiteTeardown(async () => {
    await config().update('mcpServers', before.servers, vscode.ConfigurationTarget.Global);
    await config().update('useVSCodeMcpServers', before.use, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('acpChat.newSession');
  });

  async function setupSaid(): Promise<string> {
    const a = await api();
    await a.sendPrompt('/setup');
    return answerText([...a.transcript()].reverse().find((e) => e.kind === 'agent_message'));
  }

  test("a chat's choice is kept in its record and reopens the running session with it, said in the chat", async () => {
    await config().update('mcpServers', [stdio('alpha'), stdio('__proto__')], vscode.ConfigurationTarget.Global);
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    await vscode.commands.executeCommand('acpChat.newSession');
    let said = await setupSaid();
    assert.ok(said.includes('`alpha`') && said.includes('`__proto__`'), `both servers at first: ${said}`);
    const chat = a.service.activeSession();
    const id = a.service.chatIdOf(chat);
    assert.ok(id);
    const session = chat.sessionId;
    await vscode.commands.executeCommand('acpChat.chooseMcpServers', { chatId: id, enabled: ['__proto__'] });
    assert.deepStrictEqual(a.service.chatIndex.get(id)?.mcpOff, ['alpha']);
    await until(
      () => chat.panelState().notices.find((n) => n.title.includes('MCP servers for this chat changed') && n.title.includes('reopened')),
      'the notice that the session was reopened',
      20_000,
    );
    assert.strictEqual(chat.sessionId, session, 'the same conversation, resumed');
    said = await setupSaid();
    assert.ok(!said.includes('`alpha`') && said.includes('`__proto__`'), `alpha is off: ${said}`);
    await vscode.commands.executeCommand('acpChat.chooseMcpServers', { chatId: id, enabled: ['alpha', '__proto__'] });
    assert.deepStrictEqual(a.service.chatIndex.get(id)?.mcpOff, []);
  });

  test("VS Code's user mcp.json is used once the user said yes", async () => {
    const a = await api();
    const file = a.service.mcp.userFile();
    assert.ok(file, 'the user folder is found from the global storage');
    fs.writeFileSync(file, '{ // VS Code\n "servers": { "from-vscode": { "type": "stdio", "command": "/bin/true" }, "needs-input": { "type": "http", "url": "${input:u}" } } }');
    try {
      await config().update('mcpServers', [], vscode.ConfigurationTarget.Global);
      await config().update('useVSCodeMcpServers', 'no', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('acpChat.newSession');
      assert.ok(!(await setupSaid()).includes('from-vscode'), 'not without consent');
      await config().update('useVSCodeMcpServers', 'yes', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('acpChat.newSession');
      const said = await setupSaid();
      assert.ok(said.includes('`from-vscode`') && !said.includes('needs-input'), `the user's server, not the one with a variable: ${said}`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
