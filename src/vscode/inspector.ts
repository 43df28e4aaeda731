/**
 * The protocol inspector: the exact JSON-RPC messages that built an entry, a whole capture as a paired
 * and timed log, and the agent's capability/behaviour report, each as a read-only document.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { behaviourMarkdown } from '../common/debug/agentBehaviour';
import { findingsMarkdown } from '../common/conformance';
import { expandLines, formatProtocolLog, parseCapture, type CaptureRecord } from '../common/debug/protocolLog';
import { entryIdentity, type TreeNode } from '../common/debug/treeModel';
import type { ChatService } from './chatService';

export async function showProtocolMessages(service: ChatService, node: TreeNode | undefined): Promise<void> {
  if (node?.type !== 'entry') {
    void vscode.window.showInformationMessage('Select an entry in the ACP Messages tree to see the protocol messages that built it.');
    return;
  }
  const source = service.tree.sourceOf(node.sessionId);
  const entry = source?.sessions().find((s) => s.sessionId === node.sessionId)?.entries.find((e) => e.key === node.key);
  if (!source || !entry) return;
  const seqs = expandLines(entry.stats.lines);
  const records = source.protocolRecords(seqs);
  const id = entryIdentity(entry) ?? entry.key;
  const missing = seqs.size - records.length;
  const header = `// ${entry.kind} ${id} (key ${entry.key}): ${records.length} of ${seqs.size} messages${missing ? ` (${missing} not in the kept captures: capture off, or rotated away)` : ''}\n`;
  await service.docs.show(`${entry.kind}-${safe(id)}.jsonc`, header + formatProtocolLog(records), 'jsonc');
}

export async function showProtocolLog(service: ChatService, file?: string): Promise<void> {
  const path = file ?? service.existingSession()?.captureFile();
  if (!path) {
    void vscode.window.showInformationMessage('No capture yet: start a chat (and keep acpChat.capture.enabled on).');
    return;
  }
  const records = parseCapture(await readFile(path, 'utf8')).filter((r): r is CaptureRecord => r !== null);
  await service.docs.show(`${safe(path.split(/[\\/]/).pop() ?? 'capture')}.log.jsonc`, `// ${path}\n${formatProtocolLog(records)}`, 'jsonc');
}

export async function showAgentCapabilities(service: ChatService): Promise<void> {
  const session = service.existingSession();
  if (!session) {
    void vscode.window.showInformationMessage('No chat yet: run "ACP: Open Chat" first; the report shows what the agent advertised and did.');
    return;
  }
  const report = behaviourMarkdown(session.agent.name, session.behaviour.report()) + '\n' + findingsMarkdown(session.findings());
  await service.docs.show(`${safe(session.agent.id)}-capabilities.md`, report, 'markdown');
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
}
