/** Helpers shared by the extension-host tests. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AcpChatApi } from '../../src/vscode/extension';

export async function api(): Promise<AcpChatApi> {
  const ext = vscode.extensions.getExtension<AcpChatApi>('acp-chat.acp-chat');
  assert.ok(ext);
  return ext.activate();
}

/**
 * Makes sure the active chat has had a complete demo-agent turn (an answer with a message id and a tool
 * call), so a test does not depend on what an earlier test happened to leave behind.
 */
export async function ensureDemoTurn(a: AcpChatApi): Promise<void> {
  const t = a.transcript();
  const answered = t.some((e) => e.kind === 'agent_message' && e.messageId !== null);
  if (!answered || !t.some((e) => e.kind === 'tool_call')) await a.sendPrompt('a demo turn');
}

/** The newest debug view document (protocol messages, log, capabilities, Check Agent): its text and tab title. */
export function lastDebugView(): { text: string; title: string; language: string } {
  const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'acp-chat').sort((x, y) => Number(x.uri.query) - Number(y.uri.query));
  const d = docs[docs.length - 1];
  assert.ok(d, 'a debug view was opened');
  return { text: d.getText(), title: d.uri.path.split('/').pop() ?? '', language: d.languageId };
}

/** JSON with Comments as our debug views write it (whole-line `//` comments), parsed. */
export function parseJsonc(text: string): unknown {
  return JSON.parse(
    text
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n'),
  );
}
