/**
 * The ports of a ChatController: what it needs from VS Code (UI actions), where its traffic goes (capture,
 * persistence), and how it is configured. Kept apart so the chat is tested with plain objects.
 */
import type { NoticeActionId } from '../../common/notices';
import type { Clock } from '../../common/recovery/timers';
import type { QueuedPrompt } from '../../common/promptQueue';
import type { ElicitationBroker } from '../../common/elicitationBroker';
import type { AgentConfig, Settings } from '../../common/config/settings';
import type { StoreDelta } from '../../common/store';
import type { MessageStore } from '../../common/store';
import type { Entry } from '../../common/store/model';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { CaptureRecord } from '../../common/debug/protocolLog';
import type { AgentCapabilities, AuthMethod } from '../../common/protocol/requests';
import type { ContentBlock } from '../../common/protocol/content';
import type { TerminalAuthMethod } from '../../common/protocol/sessionOps';
import type { Direction } from '../acp/client';
import type { ClientHandlers } from '../acp/handlers';
import type { ConnectAgent } from '../acp/agentLink';
import type { SessionState } from '../../common/store/model';
import type { ChangeReview, ReviewAction } from '../../common/changes/review';
import type { ClientEvent } from '../../common/store/clientEvents';
import type { ChatModel } from '../../common/webview/chatModel';
import type { IDisposable } from '../../common/util/lifecycle';
import type { ChatMcp } from './sessionParams';
import type { WorktreeView } from '../../common/webview/contract';
import type { ContextItem } from '../../common/context';
import type { ContextSource } from '../../common/webview/contextSources';

/** The chat's log (the extension's output channel; a plain function in tests). */
export type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

/** A prompt's pasted images, as the webview sends them. */
export type PromptImage = { readonly mimeType: string; readonly data: string };

/**
 * The narrow view of a chat that the webview dispatcher, the UI ports and the client handlers need.
 * ChatController implements it; depending on this instead of the class keeps those files out of an import
 * circle with it and says exactly what they may do.
 */
export interface ChatControls {
  readonly agent: AgentConfig;
  readonly broker: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  elicitationKey(sessionId: string, rpcId: string | number): string | null;
  current(): SessionState | undefined;
  /** An entry the panel shows, by key, with the session it belongs to. */
  shownEntry(key: string): { readonly sessionId: string; readonly entry: Entry } | undefined;
  /** `steer`: into the running turn where the agent supports it, else queued like any prompt. */
  prompt(text: string, images?: readonly PromptImage[], steer?: boolean): void;
  cancel(): void;
  restart(): Promise<void>;
  removeQueued(id: string): void;
  editQueued(id: string, text: string): void;
  moveQueued(id: string, offset: number): void;
  /** Attaches an editor-context item to the next prompt (a chip). */
  addContext(item: Omit<ContextItem, 'id'>): void;
  /** Drops an editor-context item from the next prompt. */
  removeContext(id: string): void;
  /** The prompt the user just sent, with the context chips it takes (the chips are cleared), without sending it. */
  takePrompt(text: string, images: readonly PromptImage[]): QueuedPrompt;
  /** An edit of an earlier message was sent or cancelled: the context chips from before it come back. */
  endEdit(): void;
  /** Sends the last prompt again in the same session (after an error or a cancel). */
  retry(): void;
  setMode(modeId: string): void;
  setConfigOption(configId: string, value: string | boolean): void;
  /** The local key of a tool call's entry, for permission cards. */
  toolCallKey(sessionId: string, toolCallId: string): string | null;
  /** Open diff, Keep or Undo in a turn's Changes summary (`index` null: every file). */
  reviewChanges(setId: string, index: number | null, action: ReviewAction): void;
  /** A button on one of the client's own notices (stall, crash, undelivered prompt). */
  noticeAction(action: NoticeActionId): void;
  /** Shows a subagent of the chat's session (any depth) in a read-only view of its own. */
  openSubagent(childSessionId: string): void;
  /** Stops a subagent's current work (`session/cancel` on the child), when its card says it can be cancelled. */
  cancelSubagent(childSessionId: string): void;
}

/** UI actions the chat cannot do itself (they need VS Code windows, editors, the clipboard). */
export interface ChatUi {
  openLink(href: string): void;
  /** Opens an elicitation's URL (already checked by `checkElicitationUrl`) in the external browser. */
  openElicitationUrl(url: string): void;
  openLocation(path: string, line: number | null): void;
  openDiff(entry: Entry, contentIndex: number): void;
  copy(text: string): void;
  /** A code block's Insert at Cursor (absent: the block offers it but nothing happens). */
  insertCode?(text: string): void;
  /** A code block's Apply to its file: `path` is agent text, checked against the workspace before a diff preview. */
  applyCode?(path: string, text: string): void;
  revealInTree(sessionId: string, key: string): void;
  /** Add Context from the prompt box: gathers that kind of context (asking which one where needed) into the chat's chips. */
  addContext?(chat: ChatControls, source: ContextSource): void;
  /** Files or folders dropped on the chat (URIs from the drop; only `file:` ones are read). */
  dropContext?(chat: ChatControls, uris: readonly string[]): void;
  exportMarkdown(chat: ChatControls): void;
  /** The header's worktree chip was clicked (a worktree chat): offer its actions. */
  worktreeActions?(): void;
  chooseAuthMethod(agentName: string, methods: readonly AuthMethod[]): Promise<string | undefined>;
  /**
   * Runs a terminal sign-in (after the user agreed to what it runs); resolves true when it succeeded or the
   * user asked to retry. Absent: terminal sign-ins are neither advertised nor offered.
   */
  runTerminalAuth?(agent: AgentConfig, method: TerminalAuthMethod, cwd: string): Promise<boolean>;
  /** Fork Chat Here on a user message of a session the chat shows (runs the command). */
  forkChat?(sessionId: string, key: string): void;
  /** Edit and Rerun on a user message: opens it in the prompt box (runs the command). */
  editMessage?(sessionId: string, key: string): void;
  /** Restore in place at the user message `key` (runs the command). */
  restoreHere?(sessionId: string, key: string): void;
  /** Sends an edited message as a branch at the user message `key` (runs the command). */
  branch?(sessionId: string, key: string, prompt: QueuedPrompt): void;
  /** Regenerate the last answer: a branch at the last user message (runs the command). */
  regenerate?(): void;
  /** Opens a read-only view of a subagent's own transcript (absent: cards do not offer it). */
  openSubagent?(model: ChatModel & IDisposable, title: string): void;
  /** A permission request waits for the user: make sure they see it. */
  permissionAsked(chat: ChatControls, title: string): void;
  /** The chat's agent is not configured: runs Add Agent, or opens the agents setting. */
  configureAgent?(how: 'add' | 'settings'): void;
}

/** Where the chat's traffic is recorded and persisted (both optional, both never fatal). */
export interface ChatSinks {
  /** `seq` numbers the chat's messages; entries record the seqs that built them. */
  /** `raw` is the message's exact JSON line when known (recorded as is). */
  capture(dir: Direction | 'note', msg: unknown, seq: number, raw?: string): void;
  /** Called after the store ingested the message, with what it changed. */
  persist(dir: Direction, msg: unknown, changes: readonly StoreDelta[], seq: number): void;
  /** Called after the store recorded the session the chat is now attached to (`MessageStore.attach`). */
  attached?(sessionId: string | null): void;
  /** Called after the store recorded a client event (`MessageStore.record`: terminal output, a notice, Changes). */
  recorded?(event: ClientEvent): void;
}

import type { EarlierLink } from '../../common/store/clientEvents';
export type { EarlierLink };

export interface ChatOptions {
  readonly agent: AgentConfig;
  /**
   * The settings do not name the chat's agent (`agent` then only carries its id): the chat refuses to
   * start, says so, and starts once `agentConfigured` gives it the agent.
   */
  readonly agentMissing?: boolean;
  readonly cwd: string;
  /** The workspace's other folders (absolute), read at each session call: sent as `additionalDirectories`. */
  readonly additionalDirectories?: () => readonly string[];
  /** VS Code's MCP servers (when the user agreed) and the ones the chat turned off, read at each session call. */
  readonly mcp?: () => ChatMcp;
  readonly store: MessageStore;
  /** The session to reattach to (see sessionToAttach), if any; recorded in the store if it is not yet. */
  readonly restoredSessionId: string | null;
  /** The link to an earlier session that versions before the store kept it saved per window (used when it names the restored session). */
  readonly restoredEarlier?: EarlierLink | null;
  readonly connect: ConnectAgent;
  readonly settings: () => Settings;
  /** Time for the restart backoff and the stall notice (tests drive it by hand). */
  readonly clock?: Clock;
  /** The client's host services; its permission requests wait in the chat's `broker`. */
  readonly handlers: (chat: ChatControls) => ClientHandlers;
  readonly sinks: ChatSinks;
  readonly ui: ChatUi;
  readonly log: Log;
  /** Builds the prompt's content blocks (text plus @-mentioned files); default: the text alone. */
  readonly buildPrompt?: (text: string, caps: AgentCapabilities | undefined) => Promise<ContentBlock[]>;
  /** Reads recorded messages back by seq (from the capture files). */
  readonly records: (seqs: ReadonlySet<number>) => readonly CaptureRecord[];
  /** The chat's edits per turn, for the Changes summary (none: no summary). */
  readonly review?: ChangeReview;
  /** A worktree chat's worktree for the header (read when the panel state is built; `ChatController.showWorktree` re-sends it). */
  readonly worktree?: () => WorktreeView | null;
}
