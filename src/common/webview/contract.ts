/**
 * The host <-> webview contract: the only definition of what crosses `postMessage`, imported by both
 * the extension host (src/vscode) and the webview bundle (webview/).
 *
 * Flow: the webview posts `ready`; the host answers with one `snapshot`; after that it sends only
 * `patch` messages, batched to at most one post per animation frame. A reloaded webview posts `ready`
 * again and gets a fresh snapshot, so nothing is lost.
 *
 * Messages from the webview are untrusted (the webview renders agent text), so the host parses them
 * with `zWebviewToHost`; messages to the webview come from our own host and are typed only.
 */
import { NOTICE_ACTIONS, type Notice } from '../notices';
import * as z from 'zod';
import type { SessionState } from '../store/model';
import type { WireEntry, WirePatch } from './wire';
import type { ContextChip } from '../context';
import type { ChangeSetView } from '../changes/view';
import type { ContentBlock } from '../protocol/content';

// The values the webview needs (the version; the empty panel, emptyPanel.ts) live in zod-free modules: a
// value import of this file runs `zWebviewToHost`'s construction, which cannot be tree-shaken and would put
// zod (most of the webview's bytes) into its bundle. The webview imports only types from here
// (test/unit/build/bundles.test.ts keeps it so).
import { WEBVIEW_PROTOCOL_VERSION } from './version';
export { WEBVIEW_PROTOCOL_VERSION };
import { MAX_EXPANDED_SUBAGENTS, MAX_IMAGES, MAX_IMAGE_BASE64 } from './limits';
import { CONTEXT_SOURCES } from './contextSources';

/** A permission request waiting for the user, shown inline on its tool call. */
export interface PermissionView {
  /** Host-side id of the pending request (not the JSON-RPC id, which the agent owns). */
  readonly requestId: string;
  readonly toolCallKey: string | null;
  readonly toolCallId: string;
  readonly title: string;
  readonly options: readonly { readonly optionId: string; readonly name: string; readonly kind: string }[];
  /**
   * Set when a subagent asks: its title (agent text). The request is shown in the root session's chat, whose
   * transcript may not hold the subagent's tool call; absent for the chat's own session.
   */
  readonly fromSubagent?: string;
}

/**
 * An agent's question waiting for the user. Session-scoped ones are drawn on their transcript entry
 * (`entryKey`); one asked before any session exists has no entry and is drawn on its own.
 */
export interface ElicitationPrompt {
  /** Host-side id of the pending question (not the JSON-RPC id, which the agent owns). */
  readonly requestId: string;
  readonly entryKey: string | null;
  readonly mode: string;
  readonly message: string;
  readonly requestedSchema: unknown;
  readonly url: string | null;
  /** Set when a subagent asks: its title (agent text), as on `PermissionView`. */
  readonly fromSubagent?: string;
}

/** Output of a terminal the client runs for the agent (v1 `terminal/create`) or the agent owns (v2), shown live on its tool call. */
export interface TerminalView {
  /** The most recent output (the host keeps a bounded tail). */
  readonly output: string;
  readonly exited: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/**
 * The transcript of a session the agent could not reattach (session/load or resume failed), shown
 * read-only above the new session's entries: the snapshot's first `entryCount` entries are its entries,
 * and patch indexes count from after them.
 */
export interface EarlierTranscript {
  readonly sessionId: string;
  readonly entryCount: number;
  /** Why a new session started, for the marker between the two (agent text: shown as text only). */
  readonly reason: string;
}

export type TurnState = 'starting' | 'idle' | 'busy' | 'cancelling' | 'exited' | 'error';

/**
 * How the last turn ended when it did not finish: the prompt failed (`error`), was cancelled, or was cut off
 * by the agent's exit or a reload (`interrupted`). Retry is offered after each.
 */
export type TurnEnd = 'error' | 'cancelled' | 'interrupted' | null;

/** Everything about the session that is not an entry. Sent whole in a snapshot, partially in patches. */
export interface PanelState {
  readonly agentName: string;
  /** Where an agent reached by URL runs (`wss://host:port`), shown beside its name; absent for a local agent. */
  readonly agentOrigin?: string | null;
  readonly sessionId: string | null;
  readonly turn: TurnState;
  /** How the chat's last turn ended, when it did not finish (null: it finished, or none ran since the chat opened). */
  readonly lastTurnEnd: TurnEnd;
  /**
   * A one-line explanation with the next step, shown when `turn` is `exited` or `error`; while `busy` with no
   * prompt of ours pending, what the agent does ("Working in the background": its subagents, or a turn of its own).
   */
  readonly message: string | null;
  readonly readOnly: boolean;
  /** The agent advertised `session/fork`: only then do user messages offer Fork Chat Here. */
  readonly canFork: boolean;
  /** The agent advertised `_session/steering`: a prompt sent while a turn runs may go into that turn. */
  readonly canSteer: boolean;
  /** The id of the chat's agent while the settings do not name it (nothing runs; the banner offers to add it), else null. */
  readonly missingAgent: string | null;
  readonly plan: SessionState['plan'];
  /** The agent's plans by id (unstable `plan_update`), shown below the single plan; [] when none. */
  readonly plans: SessionState['plans'];
  readonly currentModeId: SessionState['currentModeId'];
  readonly availableModes: SessionState['availableModes'];
  readonly availableCommands: SessionState['availableCommands'];
  readonly configOptions: SessionState['configOptions'];
  readonly usage: SessionState['usage'];
  readonly title: SessionState['title'];
  /** Prompts waiting for the running turn to end, in the order they will be sent. */
  readonly queuedPrompts: readonly QueuedPromptView[];
  /** Editor context attached to the next prompt ("Add Selection/File/Problems to Chat"), shown as chips. */
  readonly context: readonly ContextChip[];
  readonly permissions: readonly PermissionView[];
  /** Questions (elicitations) waiting for the user, oldest first. */
  readonly elicitations: readonly ElicitationPrompt[];
  readonly notices: readonly Notice[];
  /** Terminals by id; patched with `terminal` ops as output arrives. */
  readonly terminals: Readonly<Record<string, TerminalView>>;
  /** The folders the session works in (its cwd, then its additional directories): paths under them are shown relative. */
  readonly roots: readonly string[];
  /** A previous session shown read-only above this one, when reattaching it failed. */
  readonly earlier: EarlierTranscript | null;
  /** Turns folded away by Restore in place (the store's `SessionState.folds`); absent: none. */
  readonly folds?: SessionState['folds'];
  /** The "Changes" summaries of this session's turns (oldest first); patched one set at a time with `changeSet` ops. */
  readonly changeSets: readonly ChangeSetView[];
  /** The host shows a subagent's own transcript when asked (`openSubagent`); absent or false, cards do not offer it. */
  readonly canOpenSubagents?: boolean;
  /** What each running subagent under the chat's session is doing now (its open tool call's title), by child session id. */
  readonly subagentActivity?: Readonly<Record<string, string>>;
  /**
   * A done subagent's result where its card's reply is not it (Claude's background form replies "launched" at
   * once): the child's last agent message, by child session id (subagentResult.ts). Absent: the reply is.
   */
  readonly subagentResults?: Readonly<Record<string, readonly ContentBlock[]>>;
  /** A subagent's own view: the session that started it, as its messages name it ("From <title>"). */
  readonly parentSession?: { readonly sessionId: string; readonly title: string };
  /** The git worktree the chat works in (a worktree chat), shown in the header; absent: the workspace. */
  readonly worktree?: WorktreeView | null;
}

/** A worktree chat's worktree as the header shows it; `missing`: removed from outside (not recreated). */
export interface WorktreeView {
  readonly branch: string;
  readonly path: string;
  readonly missing: boolean;
}

export interface QueuedPromptView {
  /** The queue's own id for the prompt: edits and removals name it, not its place. */
  readonly id: string;
  readonly text: string;
  /** What else goes with it ("2 images, 1 context item"), or ''. */
  readonly note: string;
}

/** The panel fields that mirror the store's session state (everything else is the controller's). */
export type SessionPanelFields = Pick<
  PanelState,
  'plan' | 'plans' | 'currentModeId' | 'availableModes' | 'availableCommands' | 'configOptions' | 'usage' | 'title' | 'terminals' | 'roots' | 'folds'
>;

/**
 * What a reattach of the session the panel shows tells it again (ChatView.attached), in place of a snapshot:
 * everything but the terminals and the Changes summaries (patched as they change) and the earlier transcript
 * (the same one, or the panel would have started over).
 */
export function reattachedPanelFields(p: PanelState): Partial<PanelState> {
  const { terminals: _terminals, changeSets: _changeSets, earlier: _earlier, ...fields } = p;
  return fields;
}

export function sessionPanelFields(s: SessionState | undefined): SessionPanelFields {
  return {
    plan: s?.plan ?? null,
    plans: s?.plans ?? [],
    currentModeId: s?.currentModeId ?? null,
    availableModes: s?.availableModes ?? [],
    availableCommands: s?.availableCommands ?? [],
    configOptions: s?.configOptions ?? [],
    usage: s?.usage ?? null,
    title: s?.title ?? null,
    // Patched by `terminal` changes as output arrives, never re-sent whole for a chunk.
    terminals: s?.terminals ?? {},
    roots: s?.setup ? [s.setup.cwd, ...s.setup.additionalDirectories] : [],
    folds: s?.folds ?? [],
  };
}

/**
 * One change to the transcript. Entries cross in their wire form (wire.ts: defaults left out, bare text
 * as strings); an entry's durable key crosses once, with the entry, and later ops name the entry by its
 * handle `h`, the number both sides give it (wireDecoder.ts says how they count).
 */
export type PatchOp =
  /** A new entry at `index` (entries after it move down; absent: after all of them); it takes the next handle. */
  | { readonly op: 'insert'; readonly index?: number; readonly entry: WireEntry }
  /** Entry `h` changed in some way other than appended text (its kind, say): the whole entry. */
  | { readonly op: 'replace'; readonly h: number; readonly entry: WireEntry }
  /** Text appended to entry `h`'s content: to its last block when that is text, else as a new text block. */
  | { readonly op: 'appendText'; readonly h: number; readonly text: string }
  /** Only the fields of entry `h` that changed (a tool call's status, new content, ...): see entryDiff.ts. */
  | { readonly op: 'fields'; readonly h: number; readonly patch: WirePatch }
  /** Output appended to a terminal (`append`, possibly empty) and, once it exited, its exit status. */
  /** With `replace`, `append` is the whole output (an ACP v2 `terminal_update` snapshot), not an addition. */
  | {
      readonly op: 'terminal';
      readonly terminalId: string;
      readonly append: string;
      readonly replace?: true;
      readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
    }
  /** A turn's Changes summary was added or changed (`set`), or is no longer shown (null). */
  | { readonly op: 'changeSet'; readonly id: string; readonly set: ChangeSetView | null }
  /** Some panel fields changed; absent fields are unchanged. */
  | { readonly op: 'panel'; readonly panel: Partial<PanelState> };

/** What a panel feed posts (panelFeed.ts): a snapshot (with its `older` parts), then patches. */
export type FeedMessage =
  /**
   * Entries are the webview's projection of the store's (`toViewEntry`: raw JSON only on request), in
   * their wire form (wire.ts). A long transcript comes newest first (snapshot.ts): `olderCount` entries
   * precede these and follow in `older`. A snapshot starts the entries' handles afresh.
   */
  | { readonly type: 'snapshot'; readonly protocol: number; readonly entries: readonly WireEntry[]; readonly panel: PanelState; readonly olderCount?: number }
  /** The entries just before everything the webview holds; `olderCount` still precede them (0: this was the first). */
  | { readonly type: 'older'; readonly entries: readonly WireEntry[]; readonly olderCount: number }
  | { readonly type: 'patch'; readonly ops: readonly PatchOp[] };

export type HostToWebview =
  | FeedMessage
  /**
   * The feed of a subagent's transcript expanded in its card (`expandSubagents`): its own snapshot, then
   * patches of that child's entries only, with handles of its own. Sent only while the webview has it expanded.
   */
  | { readonly type: 'subagent'; readonly childSessionId: string; readonly message: FeedMessage }
  /** Scroll to and highlight an entry (from the debug tree's "Show in Chat"). */
  | { readonly type: 'reveal'; readonly key: string }
  /** Focus the prompt box (from the "ACP: Open Chat" command on an open panel). */
  | { readonly type: 'focusPrompt' }
  /**
   * Edit and Rerun: the prompt box takes the text and images of the user message `key` (its context went
   * to the chips); sending it makes a branch at that message (`prompt` with `branchFrom`).
   */
  | { readonly type: 'editPrompt'; readonly key: string; readonly text: string; readonly images: readonly { readonly mimeType: string; readonly data: string }[] }
  /** Restore in place: the restored message's text and images are the prompt box's draft again (sent here, as a new turn). */
  | { readonly type: 'restoreDraft'; readonly text: string; readonly images: readonly { readonly mimeType: string; readonly data: string }[] }
  /** Workspace files matching an `@` query (answers `mentionQuery`), relative to the workspace. */
  | { readonly type: 'mentionResults'; readonly query: string; readonly paths: readonly string[] }
  /** A tool call's raw input and output (answers `getRaw`; null when the entry is gone or has none). */
  | { readonly type: 'raw'; readonly key: string; readonly raw: { readonly input: unknown; readonly output: unknown } | null };

const zKey = z.string().min(1).max(200);

export const zWebviewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), protocol: z.number() }),
  z.object({
    type: z.literal('prompt'),
    text: z.string().max(1_000_000),
    /** Pasted images, base64 without the data: prefix; sent only to agents that accept images. */
    images: z
      .array(z.object({ mimeType: z.string().regex(/^image\/[\w.+-]+$/), data: z.string().max(MAX_IMAGE_BASE64) }))
      .max(MAX_IMAGES)
      .optional(),
    /** Steer it into the running turn (Alt+Enter) rather than queue it; falls back to the queue. */
    steer: z.boolean().optional(),
    /** An edited earlier user message: the prompt starts a branch at that message instead of a turn here. */
    branchFrom: zKey.optional(),
  }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('permission'), requestId: zKey, optionId: z.string().nullable() }),
  /** The user's answer to a question: validated again on the host and by the client before it is sent. */
  z.object({
    type: z.literal('elicitation'),
    requestId: zKey,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)])).optional(),
  }),
  z.object({ type: z.literal('openLink'), href: z.string().max(10_000) }),
  z.object({ type: z.literal('openLocation'), path: z.string(), line: z.number().int().nullable() }),
  z.object({ type: z.literal('openDiff'), key: zKey, index: z.number().int().nonnegative() }),
  z.object({ type: z.literal('copy'), text: z.string() }),
  /** A code block's Insert at Cursor: the text goes into the last text editor the user had, at its selections. */
  z.object({ type: z.literal('insertCode'), text: z.string().max(1_000_000) }),
  /** A code block's Apply: `path` is agent text, resolved inside the workspace by the host, shown as a diff before anything is written. */
  z.object({ type: z.literal('applyCode'), path: z.string().min(1).max(1000), text: z.string().max(1_000_000) }),
  z.object({ type: z.literal('setMode'), modeId: z.string() }),
  z.object({ type: z.literal('setConfigOption'), configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
  z.object({ type: z.literal('revealInTree'), key: zKey }),
  /** Fork Chat Here on a user message (session/fork, where the agent offers it). */
  z.object({ type: z.literal('forkChat'), key: zKey }),
  /** Edit and Rerun on a user message: the host opens it in the prompt box (`editPrompt`). */
  z.object({ type: z.literal('editMessage'), key: zKey }),
  /** Restore in place on a user message: files back, later turns folded, the chat goes on from there. */
  z.object({ type: z.literal('restoreHere'), key: zKey }),
  /** The user cancelled an edit: the host puts back the context chips the prompt box had before it. */
  z.object({ type: z.literal('cancelEdit') }),
  /** Retry the last turn (after an error or a cancel): the same prompt again, in the same session. */
  z.object({ type: z.literal('retry') }),
  /** Regenerate the last answer: a branch at the last user message, sent as it was. */
  z.object({ type: z.literal('regenerate') }),
  z.object({ type: z.literal('exportMarkdown') }),
  /** The header's worktree chip: the host offers the worktree's actions (Changes, Apply, Commit, Open Folder, Discard). */
  z.object({ type: z.literal('worktreeActions') }),
  z.object({ type: z.literal('restartAgent') }),
  /** The chat's agent is not configured: the user asked to add an agent, or to see the agents setting. */
  z.object({ type: z.literal('configureAgent'), how: z.enum(['add', 'settings']) }),
  /** A button on one of the client's own notices: Keep waiting, Resend… (each action belongs to one notice). */
  z.object({ type: z.literal('noticeAction'), action: z.enum(NOTICE_ACTIONS) }),
  /** A queued prompt, by its id: removed, its text replaced, or moved one place up (-1) or down (1). */
  z.object({ type: z.literal('removeQueued'), id: zKey }),
  z.object({ type: z.literal('editQueued'), id: zKey, text: z.string().max(1_000_000) }),
  z.object({ type: z.literal('moveQueued'), id: zKey, offset: z.union([z.literal(-1), z.literal(1)]) }),
  z.object({ type: z.literal('mentionQuery'), query: z.string().max(500) }),
  /** The user removed a context chip from the prompt box. */
  z.object({ type: z.literal('removeContext'), id: zKey }),
  /** Add Context (its menu, or an `@` word): the host gathers that kind of context, asking for the rest where needed. */
  z.object({ type: z.literal('addContext'), source: z.enum(CONTEXT_SOURCES) }),
  /** Files or folders dropped on the chat, as the drop's URIs (only `file:` ones are read). */
  z.object({ type: z.literal('dropContext'), uris: z.array(z.string().max(4000)).max(100) }),
  /** Open a subagent's own transcript (the child session of a delegation card); a host that cannot yet ignores it. */
  z.object({ type: z.literal('openSubagent'), childSessionId: z.string().min(1).max(1000) }),
  /**
   * The subagents whose transcripts are expanded in their cards, all of them (the webview's view state, sent
   * again after every snapshot): the host feeds each one listed (`subagent` messages) and stops feeding the rest.
   */
  z.object({ type: z.literal('expandSubagents'), childSessionIds: z.array(z.string().min(1).max(1000)).max(MAX_EXPANDED_SUBAGENTS) }),
  /** Stop a subagent's current work (`session/cancel` on the child; offered only while its card says it can be cancelled). */
  z.object({ type: z.literal('cancelSubagent'), childSessionId: z.string().min(1).max(1000) }),
  /** The user opened a tool call's raw input/output toggle: the host answers with `raw`. */
  z.object({ type: z.literal('getRaw'), key: zKey }),
  /** Open diff, Keep or Undo in a Changes summary: one file (`index`) or all of them (null). */
  z.object({ type: z.literal('changes'), setId: zKey, index: z.number().int().nonnegative().nullable(), action: z.enum(['openDiff', 'keep', 'undo', 'review']) }),
]);
export type WebviewToHost = z.infer<typeof zWebviewToHost>;

/**
 * State the webview keeps across hide/show and reloads with `setState`. Its shape does not follow the wire
 * protocol: a new extension version reads each field by its type (`v` says which webview wrote it), so an
 * update never throws away a half-written prompt.
 */
export interface WebviewPersistedState {
  readonly v: number;
  readonly draft: string;
  /** The entry at the top of the view, and how far (px) the view was scrolled into it; null: at the bottom, following. */
  readonly scrollKey: string | null;
  readonly scrollOffset?: number;
  /** The chat this webview shows (from the page's `data-chat-id`): how a reload gives each tab its own chat back. */
  readonly chatId?: string;
  /** The subagents whose transcripts are expanded in their cards (view state: not in the chat's store). */
  readonly expandedSubagents?: readonly string[];
}
