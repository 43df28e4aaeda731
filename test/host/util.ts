/** Helpers shared by the extension-host tests. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AcpChatApi } from '../../src/vscode/api';

export async function api(): Promise<AcpChatApi> {
  const ext = vscode.extensions.getExtension<AcpChatApi>('acp-chat.acp-chat');
  assert.ok(ext);
  return ext.activate();
}

/** Polls `f` until it returns a value (not undefined/false); the UI and the transcript update asynchronously. */
export async function until<T>(f: () => T | undefined | false, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
