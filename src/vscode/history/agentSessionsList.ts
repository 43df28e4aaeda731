/**
 * The agents' own sessions, for Open Session… and the History view: when the user asks, every configured
 * agent is asked for its sessions of this workspace folder (agentSessionLister.ts: a chat's running agent is
 * asked through its chat, any other started for the listing alone, a few at a time, each within a time
 * limit), and each agent's row (agentSessions.ts) follows its listing: listing, its sessions no chat shows,
 * none, not supported, or failed and why. Opening a session gives a chat of that agent that loads (or
 * resumes) it; from then on it is a chat like any other and no longer offered.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../../common/config/settings';
import { agentSessionsRow, type AgentListing, type AgentSessionsRow } from '../../common/history/agentSessions';
import { labelText } from '../../common/untrusted';
import { listEachAgent, type ListResult } from '../../node/history/agentSessionLister';
import type { ChatService } from '../chats/chatService';
import { chatCwd } from '../workspace/workspaceFolders';

/** Said instead of listing when the window has no folder (sessions are listed per folder). */
export const NO_FOLDER = 'Agents list their sessions per folder: open a folder to see them.';

/** Lists every agent's sessions; `onRows` hears all rows each time one changes. False without a folder. */
export async function listAgentSessionRows(service: ChatService, onRows: (rows: readonly AgentSessionsRow[]) => void): Promise<boolean> {
  await service.ready();
  const cwd = chatCwd(service.settings.workingFolder);
  if (cwd === undefined) return false;
  const agents = service.agents();
  const states = new Map<string, AgentListing>();
  const rows = (): AgentSessionsRow[] => {
    // Read afresh each time: a session opened meanwhile is a chat now, no longer offered.
    const records = [...service.chatIndex.history(), ...service.chatIndex.archived()];
    const seen = records.flatMap(
      (r) =>
        service
          .chat(r.id)
          ?.sessions()
          .map((s) => s.sessionId) ?? [],
    );
    return agents.map((a) => agentSessionsRow(a, states.get(a.id) ?? { state: 'listing' }, records, seen));
  };
  await listEachAgent(
    agents,
    {
      connect: service.connect,
      cwd,
      protocolVersion: service.settings.protocolVersion,
      log: (m) => service.log.warn(`listing sessions: ${m}`),
      running: (agent) => runningListing(service, agent),
    },
    (id, state) => {
      states.set(id, state);
      onRows(rows());
    },
  );
  return true;
}

/** A chat of `agent` whose agent is running is asked through its own connection. */
function runningListing(service: ChatService, agent: AgentConfig): (() => Promise<ListResult>) | undefined {
  for (const r of service.chatIndex.history()) {
    const chat = r.agentId === agent.id ? service.chat(r.id) : undefined;
    const facts = chat?.door.facts();
    const caps = facts && !facts.closed ? facts.capabilities : undefined;
    if (chat && caps) return async () => (caps.sessionCapabilities?.list ? [...(await chat.door.listSessions())] : 'unsupported');
  }
  return undefined;
}

/** Opens an agent's session: the chat that shows it, else a new chat of that agent that loads it. */
export async function openAgentSession(service: ChatService, agentId: string, sessionId: string): Promise<void> {
  if (!service.agents().some((a) => a.id === agentId)) return;
  await service.openChat({ agentId, sessionId });
}

interface Item extends vscode.QuickPickItem {
  readonly agentId?: string;
  readonly sessionId?: string;
}

const ICON: Record<AgentSessionsRow['state'], string> = {
  listing: '$(loading~spin)',
  listed: '$(history)',
  none: '$(check)',
  unsupported: '$(circle-slash)',
  failed: '$(error)',
};

/** ACP: Open Agent Session… — every agent's sessions not in ACP Chat, listed as each agent answers. */
export async function pickAgentSession(service: ChatService): Promise<void> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'ACP: Open Agent Session… (sessions your agents have that ACP Chat does not show)';
  qp.placeholder = 'Each configured agent is asked for its sessions of this folder';
  qp.matchOnDescription = true;
  qp.busy = true;
  const show = (rows: readonly AgentSessionsRow[]) => {
    const active = qp.activeItems[0];
    qp.items = rows.flatMap((r): Item[] => [
      { label: labelText(r.name), kind: vscode.QuickPickItemKind.Separator },
      { label: `${ICON[r.state]} ${labelText(r.note, 300)}`, description: labelText(r.name), alwaysShow: true },
      ...r.sessions.map((s) => ({
        label: labelText(s.title ?? 'Untitled session'),
        description: labelText(`${r.name} · ${when(s.updatedAt)}`),
        agentId: r.agentId,
        sessionId: s.sessionId,
      })),
    ]);
    const keep = active?.sessionId !== undefined ? qp.items.find((i) => i.sessionId === active.sessionId) : undefined;
    if (keep) qp.activeItems = [keep];
  };
  const picked = new Promise<Item | undefined>((resolve) => {
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (item?.sessionId !== undefined) resolve(item);
    });
    qp.onDidHide(() => resolve(undefined));
  });
  qp.show();
  void listAgentSessionRows(service, show)
    .then((listed) => {
      if (!listed) qp.items = [{ label: labelText(NO_FOLDER) }];
    })
    .catch((e: unknown) => service.log.warn(`listing agents' sessions: ${String(e)}`))
    .finally(() => (qp.busy = false));
  const item = await picked;
  qp.dispose();
  if (item?.agentId !== undefined && item.sessionId !== undefined) await openAgentSession(service, item.agentId, item.sessionId);
}

/** An agent's updatedAt (untrusted text) as a local date, or as sent when it is no date. */
function when(updatedAt: string | null | undefined): string {
  const d = new Date(updatedAt ?? '');
  return Number.isNaN(d.getTime()) ? (updatedAt ?? '') : d.toLocaleString();
}
