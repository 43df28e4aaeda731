/**
 * The protocol inspector: the exact JSON-RPC messages that built an entry, a whole capture as a paired
 * and timed log, and the agent's capability/behaviour report, each as a read-only document.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { behaviourMarkdown } from '../../common/debug/agentBehaviour';
import { findingsMarkdown } from '../../common/conformance';
import { expandLines, formatProtocolLog, parseCapture, type CaptureRecord } from '../../common/debug/protocolLog';
import { entryIdentity, type TreeNode } from '../../common/debug/treeModel';
import type { ChatService } from '../chats/chatService';

export async function showProtocolMessages(service: ChatService, node: TreeNode | undefined): Promise<void> {
  if (node?.type !== 'entry') {
    void vscode.window.showInformationMessage('Select an entry in the ACP Messages tree to see the protocol messages that built it.');
    return;
  }
  const source = service.tree.sourceOf(node.sessionId);
  const entry = source
    ?.sessions()
    .find((s) => s.sessionId === node.sessionId)
    ?.entries.find((e) => e.key === node.key);
  if (!source || !entry) return;
  const seqs = expandLines(entry.stats.lines);
  const records = source.protocolRecords(seqs);
  const id = entryIdentity(entry) ?? entry.key;
  const missing = seqs.size - records.length;
  // One line: a line break in the agent's id would end the comment and break the JSON.
  const header =
    `// ${entry.kind} ${id} (key ${entry.key}): ${records.length} of ${seqs.size} messages${missing ? ` (${missing} not in the kept captures: capture off, or rotated away)` : ''}`.replace(
      /[\r\n\u2028\u2029]+/g,
      ' ',
    ) + '\n';
  await service.docs.show(`Messages · ${entry.kind} ${safe(id).slice(0, 32)}.jsonc`, header + formatProtocolLog(records), 'jsonc');
}

export async function showProtocolLog(service: ChatService, file?: string): Promise<void> {
  const session = service.existingSession();
  const path = file ?? session?.captureFile();
  if (!path) {
    void vscode.window.showInformationMessage('No capture yet: start a chat (and keep acpChat.capture.enabled on).');
    return;
  }
  const records = parseCapture(await readFile(path, 'utf8')).filter((r): r is CaptureRecord => r !== null);
  // A short title; the capture file's path is the document's first line.
  const title = file === undefined && session ? `Protocol log · ${safe(session.agent.name)}` : 'Protocol log';
  await service.docs.show(`${title}.jsonc`, `// ${path}\n${formatProtocolLog(records)}`, 'jsonc');
}

export async function showAgentCapabilities(service: ChatService): Promise<void> {
  const session = service.existingSession();
  if (!session) {
    void vscode.window.showInformationMessage('No chat yet: run "ACP: Open Chat" first; the report shows what the agent advertised and did.');
    return;
  }
  const report = behaviourMarkdown(session.agent.name, session.behaviour.report()) + '\n' + findingsMarkdown(session.findings());
  await service.docs.show(`Capabilities · ${safe(session.agent.name)}.md`, report, 'markdown');
}

/** Agent-given text as part of a tab title: no path separators or control characters, kept short. */
export function safe(s: string): string {
  return s.replace(/[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '_').slice(0, 60);
}
