/** Opens the session persistence for the extension's storage folder. */
import type * as vscode from 'vscode';
import { MemoryPersistence, type SessionPersistence } from './sessionPersistence';

export async function openPersistence(_storage: vscode.Uri): Promise<SessionPersistence> {
  return new MemoryPersistence();
}
