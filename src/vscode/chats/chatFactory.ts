/**
 * Builds the live ChatController of one chat: its own store (restored from its journal), capture file,
 * terminals, permission handlers and UI ports. Everything here is per chat, so two chats (also of the
 * same agent) share nothing but the settings, the log and the workspace's file access.
 */
import * as vscode from 'vscode';
import type { AgentConfig, Settings } from '../../common/config/settings';
import type { ChatRecord } from '../../common/chats/chatIndex';
import type { ConnectAgent } from '../../node/acp/agentLink';
import { CaptureFile, readCaptureRecords } from '../../node/capture/captureFile';
import { NodeTerminalHost } from '../../node/terminals';
import { ChatController } from '../../node/chat/chatController';
import { createClientHandlers } from '../../node/chat/clientHandlers';
import type { FileAccess } from '../workspace/fsHandlers';
import { buildPrompt } from '../context/promptBuilder';
import { sessionToAttach, type ChatPersistence } from '../../node/chat/chatPersistence';
import type { EarlierLink } from '../../node/chat/chatPorts';
import type { ChatMcp } from '../../node/chat/sessionParams';
import { createChatUi } from '../panel/chatUi';
import { chatCwd, otherFolders } from '../workspace/workspaceFolders';
import { createTurnChanges } from '../changes/turnChanges';
import type { VirtualDocuments } from '../workspace/virtualDocuments';
import { announcementOf, rootOf, subagentLabel, type SessionLookup } from '../../common/store/sessionTree';
import { worktreeGone, worktreeOf, worktreesDir } from '../worktrees/worktreeBoundary';

/** Workspace-state key where versions before the store kept it saved a chat's link to the earlier transcript (read once, then removed). */
const earlierKey = (chatId: string) => `acpChat.earlierTranscript.${chatId}`;
/** Workspace-state key where versions before the chats' own folder saved a chat's Changes summaries (read when the folder has none). */
const changesKey = (chatId: string) => `acpChat.turnChanges.${chatId}`;
/** A deleted chat's state as versions before the chats' own folder saved it (the two keys above). */
export function forgetOlderState(state: vscode.Memento, chatId: string): void {
  void state.update(earlierKey(chatId), undefined);
  void state.update(changesKey(chatId), undefined);
}

/** What every chat shares, supplied by ChatService. */
export interface ChatFactoryDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly docs: VirtualDocuments;
  readonly files: FileAccess;
  readonly persistence: ChatPersistence;
  readonly connect: ConnectAgent;
  settings(): Settings;
  /** The chat's MCP inputs beyond the settings (mcpChoice.ts), read at each session call. */
  mcp?(chatId: string): ChatMcp;
  capturesDir(): string;
  /** Keeps a line for the debug bundle. */
  remember(line: string): void;
  revealInTree(chatId: string, sessionId: string, key: string): void;
  /** True when a webview showing this chat is visible. */
  isChatVisible(chatId: string): boolean;
  showChat(chatId: string): void;
  /** The editor column of the chat's tab, if it has one. */
  chatColumn(chatId: string): vscode.ViewColumn | undefined;
}

/**
 * Capture files are named by this (readCaptureRecords matches the name's end). A chat saved before
 * several chats existed has its agent's id as chat id and keeps its captures' old names.
 */
/** What a permission notification names: the request, and the subagent that asks when one does. */
function subagentAsks(store: SessionLookup, sessionId: string, title: string): string {
  const sub = announcementOf(store, sessionId);
  return sub ? `subagent “${subagentLabel(sub)}”: ${title}` : title;
}

function captureName(chat: ChatRecord): string {
  return chat.id === chat.agentId ? chat.agentId : `${chat.agentId}-${chat.id}`;
}

/**
 * The chat's session, with its agent; `configured` null: the settings do not name the chat's agent, and
 * the session waits for them (ChatController.agentConfigured) rather than running another agent.
 */
export function createChatController(d: ChatFactoryDeps, chat: ChatRecord, configured: AgentConfig | null): ChatController {
  const initial: AgentConfig = configured ?? { id: chat.agentId, name: chat.agentId, command: '(not configured)', args: [], env: {} };
  // The session's agent may be configured later: names are read from it when needed.
  const agentName = (): string => owner?.agent.name ?? initial.name;
  // Chosen once per chat (a session's cwd cannot change on load or resume); the other folders are read per session.
  // A worktree chat works in its worktree alone: its cwd and its whole file boundary.
  const wt = worktreeOf(chat, d.files, worktreesDir(d.context.globalStorageUri.fsPath));
  const files = wt?.files ?? d.files;
  const folder = wt?.info.path ?? chatCwd(d.settings().workingFolder);
  const cwd = folder ?? d.context.globalStorageUri.fsPath;
  const restored = d.persistence.restore(chat.id, (m) => d.log.warn(m));
  const name = captureName(chat);
  let capture: CaptureFile | undefined;
  // The session is created below; terminal events reach it through this late-bound reference.
  let owner: ChatController | undefined;
  const terminals = new NodeTerminalHost({
    defaultCwd: cwd,
    admitCwd: (dir, sid) => files.checkTerminalCwd(dir, { agentName: agentName(), sessionId: sid, scope: chat.id }),
    onOutput: (id, text, sid) => owner?.terminalEvent(id, text, undefined, sid),
    onExit: (id, status, sid) => owner?.terminalEvent(id, '', { exitCode: status.exitCode ?? null, signal: status.signal ?? null }, sid),
  });
  const ui = createChatUi({
    docs: d.docs,
    log: d.log,
    revealInTree: (sid, key) => d.revealInTree(chat.id, sid, key),
    isPanelVisible: () => d.isChatVisible(chat.id),
    showPanel: () => d.showChat(chat.id),
    chatColumn: () => d.chatColumn(chat.id),
    chatId: chat.id,
    extensionUri: d.context.extensionUri,
  });
  const review = createTurnChanges({
    docs: d.docs,
    log: (level, message) => d.log[level](message),
    agentName,
    cwd,
    chatColumn: () => d.chatColumn(chat.id),
    saved: restored.store.changes() ?? d.context.workspaceState.get(changesKey(chat.id)),
    save: (saved) => owner?.recordChanges(saved),
    insideWorkspace: (p) => files.insideWorkspace(p),
  });
  // Versions before the store kept the link saved it per window: read once, recorded in the store (restore), removed below.
  const oldEarlier = d.context.workspaceState.get<EarlierLink>(earlierKey(chat.id)) ?? null;
  const session: ChatController = new ChatController({
    agent: initial,
    agentMissing: configured === null,
    cwd,
    additionalDirectories: () => (wt ? [] : otherFolders(cwd)),
    ...(wt ? { worktree: () => wt.view() } : {}),
    mcp: () => d.mcp?.(chat.id) ?? { vscode: [], off: [] },
    review,
    store: restored.store,
    restoredSessionId: sessionToAttach(restored, chat.sessionId),
    restoredEarlier: oldEarlier,
    connect: wt?.missing ? worktreeGone(wt.info) : d.connect,
    settings: d.settings,
    handlers: (s) =>
      createClientHandlers({
        agentName: s.agent.name,
        scope: chat.id,
        files,
        elicitations: s.elicitations,
        elicitationKey: (sid, id) => s.elicitationKey(sid, id),
        terminals,
        rules: () => d.settings().permissionRules,
        toolCallKey: (sid, id) => s.toolCallKey(sid, id),
        onAsk: (sid, title) => ui.permissionAsked(s, subagentAsks(restored.store, sid, title)),
        // A subagent's write is part of the work of the session it was started under: its turn's Changes.
        onWrite: (sid, p, write) => {
          const root = rootOf(restored.store, sid);
          review.wrote(root, p, write.previous, write.written, restored.store.session(root)?.entries.at(-1)?.key ?? null);
        },
        log: (m) => d.log.info(m),
      }),
    sinks: {
      capture: (dir, msg, seq, raw) => {
        const settings = d.settings();
        if (!settings.captureEnabled) return;
        capture ??= CaptureFile.create(d.capturesDir(), name, settings.captureMaxFiles, (m) => d.log.error(m));
        capture.write(dir, msg, seq, raw);
      },
      persist: (dir, msg, changes, seq) => d.persistence.append(chat.id, dir, msg, changes, seq),
      attached: (sessionId) => d.persistence.attach(chat.id, sessionId),
      recorded: (event) => d.persistence.record(chat.id, event),
    },
    ui,
    log: (level, message) => {
      d.log[level](message);
      d.remember(`${new Date().toISOString()} ${level} [${chat.agentId}] ${message}`);
    },
    records: (seqs) => readCaptureRecords(d.capturesDir(), name, seqs),
    buildPrompt: (text, caps) => buildPrompt(text, caps, files, folder),
  });
  owner = session;
  if (oldEarlier) void d.context.workspaceState.update(earlierKey(chat.id), undefined); // the store has it now
  session.captureFile = () => capture?.path;
  session.own(terminals);
  return session;
}
