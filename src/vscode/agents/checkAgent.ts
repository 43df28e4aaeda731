/**
 * ACP: Check Agent — the live conformance check (src/node/conformance/liveCheck.ts) on the selected
 * agent, in a scratch directory, with a progress notification; the report opens as a read-only
 * Markdown document. The command returns the result's counts, so tests can assert on them.
 */
import * as vscode from 'vscode';
import { safe } from '../debug/inspector';
import { liveReportMarkdown, summarize } from '../../common/conformance';
import type { Finding } from '../../common/conformance';
import { noticeText } from '../../common/untrusted';
import { runLiveCheck } from '../../node/conformance/liveCheck';
import type { ChatService } from '../chats/chatService';

export interface CheckAgentResult {
  readonly agentId: string;
  readonly errors: number;
  readonly warnings: number;
  readonly findings: readonly Finding[];
  readonly stopped: string | null;
}

export async function checkAgent(service: ChatService, agentId?: string): Promise<CheckAgentResult | undefined> {
  await service.ready();
  const agent = agentId === undefined ? service.selectedAgent() : service.agents().find((a) => a.id === agentId);
  if (!agent) {
    void vscode.window.showErrorMessage(`No agent with id '${noticeText(agentId ?? '')}' to check (see the acpChat.agents setting).`);
    return undefined;
  }
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${noticeText(agent.name)}` }, (progress) =>
    runLiveCheck({
      agent,
      protocolVersion: service.settings.protocolVersion,
      onProgress: (step) => progress.report({ message: step }),
    }),
  );
  const s = summarize(result.findings, result.records.length);
  const markdown = liveReportMarkdown({
    agentName: agent.name,
    agentInfo: result.agentInfo,
    protocolVersion: result.protocolVersion,
    probes: result.probes,
    findings: result.findings,
    lines: result.records.length,
    stopped: result.stopped,
  });
  await service.docs.show(`Check Agent · ${safe(agent.name)}.md`, markdown, 'markdown');
  return { agentId: agent.id, errors: s.errors, warnings: s.warnings, findings: result.findings, stopped: result.stopped ?? null };
}
