/**
 * One session of the store: its entry table, its session-level fields, and the dispatch of reducer
 * actions to the rules that change them. The rules live beside it:
 * - entryTable.ts    the entries and their id maps; the single append point and the single update path
 * - messageRules.ts  chunks, v2 message upserts, the local prompt and its echo
 * - toolCallRules.ts tool calls, their patches and content chunks, cancel
 * - replayWindow.ts  session/load: replayed history matched to the entries already shown
 */
import type { Action } from './actions';
import { assertNever } from '../util/guards';
import type { StepDeps, Bookkeeping } from './stepDeps';
import { EntryTable } from './entryTable';
import { MessageRules } from './messageRules';
import type { AvailableCommand, ConfigOption, Entry, PlanEntry, SessionMode, SessionState, TerminalState, Usage } from './model';
import { withTerminalOutput } from './terminalRules';
import { ReplayWindow } from './replayWindow';
import type { ReplayState } from './replayState';
import { ToolCallRules } from './toolCallRules';
import { ElicitationRules } from './elicitationRules';
import { SubagentRules } from './subagentRules';
import { CompactionRules } from './compactionRules';
import { modeFromConfig } from '../modes';
import { shownTitle } from './titleRules';
import { removePlan, upsertPlan } from './planRules';
import type { AgentPlan } from '../protocol/planUpdates';
import type { ChunkKind } from '../protocol/updates';
import type { SessionSetup } from './sessionSetup';
import type { Fold } from './fold';
import { foldedIndexes, type RewoundAction } from './foldRules';

export type { StepDeps } from './stepDeps';

/** Reducer bookkeeping that is not part of the visible state but must survive save/restore (its saved form: `zInternals`). */
export type SessionInternals = Bookkeeping & { replay: ReplayState | null };

export class Session {
  readonly sessionId: string;
  protocolVersion: number;
  /** Set by the store only, from the parent's subagent entry (derived: not saved, found again on restore). */
  parentSessionId: string | null = null;
  plan: readonly PlanEntry[] | null = null;
  /** The plans by id (planRules.ts), in the order they first came. */
  plans: readonly AgentPlan[] = [];
  setup: SessionSetup | null = null;
  currentModeId: string | null = null;
  availableModes: readonly SessionMode[] = [];
  availableCommands: readonly AvailableCommand[] = [];
  configOptions: readonly ConfigOption[] = [];
  usage: Usage | null = null;
  /** The agent's title (`session_info_update`); `state().title` is the one shown. */
  title: string | null = null;
  /** The title the user gave (Rename Chat): shown instead of the agent's until cleared. */
  userTitle: string | null = null;
  updatedAt: string | null = null;
  terminals: Readonly<Record<string, TerminalState>> = {};
  /** Turns folded away by Restore in place (foldRules.ts). */
  folds: readonly Fold[] = [];
  private readonly table: EntryTable;
  private readonly book: Bookkeeping = { open: -1, echo: null, lastAgentKey: null };
  private readonly replay: ReplayWindow;
  private readonly messages: MessageRules;
  private readonly tools: ToolCallRules;
  private readonly elicitations: ElicitationRules;
  private readonly subagents: SubagentRules;
  private readonly compactions: CompactionRules;

  constructor(sessionId: string, protocolVersion: number) {
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
    this.table = new EntryTable(sessionId);
    this.replay = new ReplayWindow(this.table);
    this.messages = new MessageRules(this.table, this.book, this.replay);
    this.tools = new ToolCallRules(this.table, this.book, this.replay);
    this.elicitations = new ElicitationRules(this.table);
    this.subagents = new SubagentRules(this.table, this.replay);
    this.compactions = new CompactionRules(this.table, this.replay);
  }

  state(): SessionState {
    return {
      sessionId: this.sessionId,
      parentSessionId: this.parentSessionId,
      protocolVersion: this.protocolVersion,
      entries: this.table.entries,
      plan: this.plan,
      plans: this.plans,
      setup: this.setup,
      currentModeId: this.currentModeId,
      availableModes: this.availableModes,
      availableCommands: this.availableCommands,
      configOptions: this.configOptions,
      usage: this.usage,
      title: shownTitle(this.userTitle, this.title),
      ...(this.userTitle !== null ? { userTitle: this.userTitle } : {}),
      updatedAt: this.updatedAt,
      terminals: this.terminals,
      ...(this.folds.length ? { folds: this.folds } : {}),
    };
  }

  /** How many subagents this session announced, without walking its entries (asked per update). */
  get subagentCount(): number {
    return this.table.childCount;
  }

  /** Whether this text chunk would only append to the open message (messageRules.ts `continues`). */
  continues(chunkKind: ChunkKind, messageId: string | null): boolean {
    return this.messages.continues(chunkKind, messageId);
  }

  internals(): SessionInternals {
    const b = this.book;
    return { open: b.open, echo: b.echo, lastAgentKey: b.lastAgentKey, replay: this.replay.state };
  }

  /** Restores a saved session: entries (with their keys) and bookkeeping. Used by `fromJSON` only. */
  restore(entries: readonly Entry[], internals: SessionInternals): void {
    this.table.restore(entries);
    this.book.open = internals.open < this.table.length ? internals.open : -1;
    this.book.echo = internals.echo;
    this.book.lastAgentKey = internals.lastAgentKey;
    this.replay.state = internals.replay;
  }

  apply(a: Action, ctx: StepDeps): void {
    switch (a.kind) {
      case 'chunk':
        return this.messages.chunk(a.chunkKind, a.chunk, ctx);
      case 'chunk_run':
        return this.messages.run(a, ctx);
      case 'message':
        return this.messages.upsert(a.upsertKind, a.upsert, ctx, a.route);
      case 'subagent':
        return this.subagents.update(a.patch, ctx);
      case 'compaction':
        return this.compactions.update(a.patch, ctx);
      case 'compaction_chunk':
        return this.compactions.chunk(a.chunk, ctx);
      case 'local_prompt':
        // A prompt ends a replay still open after its session/load response (store.ts): what follows is live.
        if (this.replay.active) {
          this.replay.end();
          this.book.open = -1;
        }
        return this.messages.localPrompt(a.content, ctx);
      case 'prompt_answered':
        return this.messages.promptAnswered(a.localKey, a.messageId, ctx);
      case 'tool_call':
        return this.tools.toolCall(a.toolCall, ctx);
      case 'tool_call_update':
        return this.tools.patch(a.patch, ctx, true);
      case 'permission_tool_call':
        return this.tools.patch(a.patch, ctx, false);
      case 'tool_call_content_chunk':
        return this.tools.contentChunk(a.chunk.toolCallId, a.chunk.content, ctx);
      case 'permission_rejected':
        return this.tools.rejected(a.toolCallId, ctx);
      case 'cancel':
        return this.tools.cancel(ctx);
      case 'elicitation_asked':
        return this.elicitations.asked(a, ctx);
      case 'elicitation_answered':
        return this.elicitations.answered(a, ctx);
      case 'elicitation_completed':
        return this.elicitations.completed(a.elicitationId, ctx);
      case 'load_started':
        // The agent's session has no folded turns: a replay must not match into them.
        this.replay.start(foldedIndexes(this.table.entries, this.folds));
        this.book.open = -1;
        this.book.echo = null;
        return;
      case 'load_ended':
        this.replay.end();
        this.book.open = -1;
        return;
      case 'plan':
        this.plan = a.entries;
        return this.changed(ctx, ['plan']);
      case 'plan_update':
        this.plans = upsertPlan(this.plans, a.plan);
        return this.changed(ctx, ['plans']);
      case 'plan_removed': {
        const before = this.plans;
        this.plans = removePlan(before, a.planId, ctx);
        return this.plans === before ? undefined : this.changed(ctx, ['plans']);
      }
      case 'available_commands':
        this.availableCommands = a.commands;
        return this.changed(ctx, ['availableCommands']);
      case 'current_mode':
      case 'mode_set':
        this.currentModeId = a.kind === 'current_mode' ? a.currentModeId : a.modeId;
        return this.changed(ctx, ['currentModeId']);
      case 'config_options':
        this.configOptions = a.configOptions;
        return this.changed(ctx, ['configOptions', ...this.modeFromConfig()]);
      case 'session_info': {
        // Patch: omitted = unchanged, null = clear.
        const fields: (keyof SessionState)[] = [];
        if (a.info.title !== undefined) {
          this.title = a.info.title;
          fields.push('title');
        }
        if (a.info.updatedAt !== undefined) {
          this.updatedAt = a.info.updatedAt;
          fields.push('updatedAt');
        }
        return this.changed(ctx, fields);
      }
      case 'user_title':
        this.userTitle = a.title?.trim() ? a.title : null;
        return this.changed(ctx, ['title']);
      case 'usage':
        this.usage = { used: a.usage.used, size: a.usage.size, ...(a.usage.cost !== undefined ? { cost: a.usage.cost } : {}) };
        return this.changed(ctx, ['usage']);
      case 'session_result': {
        const fields: (keyof SessionState)[] = [];
        if (a.modes) {
          this.currentModeId = a.modes.currentModeId;
          this.availableModes = a.modes.availableModes;
          fields.push('currentModeId', 'availableModes');
        }
        if (a.configOptions) {
          this.configOptions = a.configOptions;
          fields.push('configOptions', ...this.modeFromConfig());
        }
        if (fields.length > 0) this.changed(ctx, fields);
        return;
      }
      case 'forked':
        if (this.table.length === 0) this.copy(a.entries, ctx);
        return;
      case 'rewound':
        return this.rewound(a, ctx);
      case 'terminal_output':
        this.terminals = withTerminalOutput(this.terminals, a);
        ctx.changes.push({
          type: 'terminal',
          sessionId: this.sessionId,
          terminalId: a.terminalId,
          append: a.append,
          ...(a.replace ? { replace: true as const } : {}),
          ...(a.exit ? { exit: a.exit } : {}),
        });
        return;
      case 'session_setup':
        this.setup = a.setup;
        return this.changed(ctx, ['setup']);
      case 'ignored':
        return;
      default:
        return assertNever(a);
    }
  }

  /**
   * Another session's entries copied in (a fork's shared history, once, into a session that shows nothing
   * yet; a restore's turns): each entry is a new entry of this session with its own key (keys are minted at
   * the append point, never shared); a tool call's `parentKey` follows its message to the copy. Returns the
   * copies' keys by the source's index (undefined: not copied).
   */
  private copy(entries: readonly Entry[], ctx: StepDeps): (string | undefined)[] {
    const keys = new Map<string, string>();
    return entries.map(({ key, ...e }) => {
      if (e.kind === 'elicitation' && e.status === 'pending') return undefined; // a question the copy cannot answer
      const copy =
        e.kind === 'tool_call'
          ? { ...e, parentKey: e.parentKey === null ? null : (keys.get(e.parentKey) ?? null), provenance: 'fork' as const }
          : { ...e, provenance: 'fork' as const };
      const added = this.table.at(this.table.append(copy, ctx));
      if (added) keys.set(key, added.key);
      return added?.key;
    });
  }

  /**
   * Restore in place, once per message restored to: the history before it (copied unless a fork at the
   * message seeded it already) keeps the source's folds, then the turns from the message on are copied
   * and folded.
   */
  private rewound(a: RewoundAction, ctx: StepDeps): void {
    if (this.folds.some((f) => f.from.sessionId === a.from.sessionId && f.from.key === a.from.key)) return;
    const seeded = this.table.length > 0;
    const beforeKeys = seeded ? (this.table.length === a.before.length ? this.table.entries.map((e) => e.key) : []) : this.copy(a.before, ctx);
    const inherited = a.inherited.flatMap((f) => {
      const first = beforeKeys[f.start];
      const last = beforeKeys[f.end];
      return first !== undefined && last !== undefined ? [{ first, last, from: f.from }] : [];
    });
    const later = this.copy(a.later, ctx).filter((k) => k !== undefined);
    const first = later[0];
    const last = later.at(-1);
    this.folds = [...this.folds, ...inherited, ...(first !== undefined && last !== undefined ? [{ first, last, from: a.from }] : [])];
    // A session that goes on from another starts with its titles, so the chat's tab keeps its name (a new
    // session has none until the agent names it).
    const titled = this.title === null && this.userTitle === null && (a.titles.agent !== null || a.titles.user !== null);
    if (titled) {
      this.title = a.titles.agent;
      this.userTitle = a.titles.user;
    }
    this.changed(ctx, titled ? ['folds', 'title'] : ['folds']);
  }

  /** A mode chosen through its config option is the session's mode (ACP prefers the option to legacy modes). */
  private modeFromConfig(): (keyof SessionState)[] {
    const mode = modeFromConfig(this.configOptions, this.availableModes);
    if (mode === undefined || mode === this.currentModeId) return [];
    this.currentModeId = mode;
    return ['currentModeId'];
  }

  private changed(ctx: StepDeps, fields: (keyof SessionState)[]): void {
    ctx.changes.push({ type: 'sessionChanged', sessionId: this.sessionId, fields });
  }
}
