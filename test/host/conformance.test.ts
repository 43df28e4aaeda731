/**
 * The conformance check in the extension host: "ACP: Check Agent" runs the live check on the demo agent
 * and opens the report; the capability view and the ACP Messages tree show the live session's findings.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { CheckAgentResult } from '../../src/vscode/agents/checkAgent';
import { api, lastDebugView } from './util';

const activeText = () => lastDebugView().text;

suite('Conformance check', () => {
  test('ACP: Check Agent passes the demo agent and opens the report', async () => {
    const result = await vscode.commands.executeCommand<CheckAgentResult | undefined>('acpChat.checkAgent', 'demo');
    assert.ok(result, 'the command returned no result');
    assert.deepStrictEqual(result.findings, []);
    assert.strictEqual(result.stopped, null);
    const text = activeText();
    assert.match(text, /# Conformance check: Demo agent/);
    assert.match(text, /\*\*passes\*\* \(0 errors, 0 warnings/);
    assert.match(text, /\| session\/cancel \| - \| stopReason cancelled \|/);
    assert.match(text, /\| session\/load \| yes \| supported \|/);
  });

  test('the capability view and the message tree show the live session’s findings', async () => {
    const a = await api();
    await a.sendPrompt('conformance prompt');
    await vscode.commands.executeCommand('acpChat.showAgentCapabilities');
    assert.match(activeText(), /## Conformance findings\s+No findings/);
    const sid = a.service.activeSession().sessionId!;
    const kids = a.service.tree.getChildren(a.service.tree.getChildren().find((n) => n.type === 'session' && n.sessionId === sid));
    const group = kids.find((n) => n.type === 'group' && n.group === 'conformance');
    assert.ok(group, 'no Conformance group in the tree');
    assert.strictEqual(group.description, 'no findings');
  });
});
