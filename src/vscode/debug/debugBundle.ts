/**
 * ACP: Export Debug Bundle — one JSON file with everything a bug report needs: the capture of the
 * connection, the store state, the agent's capabilities and recent stderr, settings and versions.
 */
import * as vscode from 'vscode';
import { agentOrigin } from '../../common/config/agentUrl';
import { readFile } from 'node:fs/promises';
import { noticeText } from '../../common/untrusted';
import type { ChatService } from '../chats/chatService';
import { errorText } from '../../common/util/errors';

export async function buildDebugBundle(service: ChatService): Promise<Record<string, unknown>> {
  // The bundle describes the active chat. With none yet, this starts the active agent, so the bundle shows
  // what it does at startup: for a bug report that is often the part that matters.
  await service.ready();
  const session = await service.activeChat();
  const agent = session.door.facts();
  const capturePath = session.captureFile();
  const capture = capturePath
    ? await readFile(capturePath, 'utf8').then(
        (t) =>
          t
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as unknown),
        (e: unknown) => ({ error: `could not read ${capturePath}: ${errorText(e)}` }),
      )
    : null;
  const { agents, ...settings } = service.settings;
  return {
    format: 'acp-chat-debug-bundle',
    version: 1,
    createdAt: new Date().toISOString(),
    extension: { version: String((vscode.extensions.getExtension('acp-chat.acp-chat')?.packageJSON as { version?: unknown } | undefined)?.version ?? '') },
    vscode: { version: vscode.version, appName: vscode.env.appName, remoteName: vscode.env.remoteName ?? null },
    agent: { id: session.agent.id, name: session.agent.name, command: session.agent.command, args: session.agent.args, origin: agentOrigin(session.agent) },
    // Environment values may hold secrets: only their names go into the bundle.
    configuredAgents: agents.map((a) => ({
      id: a.id,
      name: a.name,
      command: a.command,
      args: a.args,
      env: Object.keys(a.env),
      origin: agentOrigin(a),
      secretHeaders: a.secretHeaders ?? [],
    })),
    settings,
    turn: session.turnState,
    protocolVersion: agent?.protocolVersion ?? null,
    agentInfo: agent?.agentInfo ?? null,
    agentCapabilities: agent?.capabilities ?? null,
    authMethods: agent?.authMethods ?? [],
    sessionId: session.sessionId,
    store: session.store.toJSON(),
    diagnostics: session.store.diagnostics(),
    stderrTail: session.stderrTail(),
    log: service.logTail(),
    capturePath: capturePath ?? null,
    capture,
  };
}

export async function exportDebugBundle(service: ChatService, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const bundle = await buildDebugBundle(service);
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: 'Export ACP Chat debug bundle',
      defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.cwd()), `acp-chat-debug-${Date.now()}.json`),
      filters: { JSON: ['json'] },
    }));
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(bundle, null, 2)));
  void vscode.window.showInformationMessage(`Debug bundle written to ${noticeText(uri.fsPath)}`);
  return uri;
}
