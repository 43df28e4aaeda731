/**
 * The review of a chat's edits: records what the agent wrote and reported during each turn, and carries
 * out Keep, Undo and Open diff from the Changes summary. Undo puts the previous text back only when the
 * file still holds the agent's version; otherwise it leaves the file alone and says why. The files, the
 * diff editor and notifications are ports (VS Code in the extension, plain objects in tests); the state
 * is the pure reducer in model.ts.
 */
import { Disposable, Emitter } from '../util/lifecycle';
import { errorText } from '../util/errors';
import type { Entry } from '../store/model';
import { byPath, reportedDiffs, reportedTexts, resolveDiffs } from './derive';
import { EMPTY_CHANGES, isOpen, openSet, reduceChanges, type ChangeSet, type ChangesAction, type ChangesState, type FileChange, type ReportedChange } from './model';
import { sessionViews, setView, type ChangeSetView } from './view';
import { rewindTargets, type RewindFile } from './rewind';
import { placeHunks, sameHunk, undoEdit, type Hunk } from './hunks';
import type { HunkAction } from './hunkRules';
import { toolKeysByPath, withSubagents, type ChildEntries } from './toolCards';
import { planUndoAll, type LeftWhy } from './undoAll';

interface ReviewFiles {
  /** The text the user sees now (an open editor's unsaved text, else the disk); null when the file does not exist. */
  read(path: string): Promise<string | null>;
  /** Puts `text` back (null: deletes the file) as one edit the user can undo in the editor. */
  restore(path: string, text: string | null, label: string): Promise<void>;
  /** Whether Undo may write this agent-reported path (the agent could name any file in a diff). */
  mayRestore(path: string): Promise<boolean>;
  /** Several restores as one edit (one Ctrl+Z brings them all back); absent: one `restore` per file. */
  restoreAll?(items: readonly { readonly path: string; readonly text: string | null }[], label: string): Promise<void>;
  /**
   * Replaces characters [from, to) of the file, which must hold `expected` (else it throws and writes
   * nothing), as one edit the user can undo; absent: `restore` of the whole new text.
   */
  replaceRange?(path: string, expected: string, from: number, to: number, text: string, label: string): Promise<void>;
}

/** What a rewind found: the files it would put back and those it leaves alone (shown paths). */
export interface RewindOffer {
  readonly files: readonly string[];
  readonly refused: readonly { readonly path: string; readonly why: string }[];
}

export interface ReviewPorts {
  readonly files: ReviewFiles;
  agentName(): string;
  /** One spelling per file (normalized, absolute), so a write and a reported diff of it meet. */
  canonical(path: string): string;
  /** How a path is shown (workspace-relative when inside it). */
  shownPath(path: string): string;
  openDiff(path: string, left: string, right: string, title: string): void;
  /** Shows the file in the editor with the cursor on `line` (0-based). */
  reveal?(path: string, line: number): void;
  /** Asks once before a step that needs the user's word (a modal with `yes`); absent: it goes ahead. */
  confirm?(message: string, yes: string): Promise<boolean>;
  /** Tells the user something they must read; `compare` (when given) opens the agent's version beside the file now. */
  explain(message: string, compare?: () => void): void;
  /** Saves the state with the chat; may be deferred (then `flush` writes what is pending, on dispose). */
  save(state: ChangesState): void;
  flush?(): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

/** Why Undo All left a file alone (undoAll.ts), after its path. */
const LEFT_WHY: Record<LeftWhy, (agent: string) => string> = {
  unreadable: () => 'could not be read, so Undo left it alone',
  deleted: (agent) => `was deleted after ${agent}'s edit, so Undo left it alone`,
  created: (agent) => `was created by ${agent} and changed since: deleting it would lose those changes, so Undo left it alone; Keep accepts it as it is`,
  edited: (agent) => `was edited by you on every line ${agent} changed, so Undo left it alone; Keep accepts it as it is`,
};

/** `review`: open the file in the editor at its first hunk (review in the editor, hunk by hunk). */
export type ReviewAction = 'openDiff' | 'keep' | 'undo' | 'review';

/** A change set's summary changed (`view` null: it is no longer shown). */
export interface ReviewChange {
  readonly sessionId: string;
  readonly id: string;
  readonly view: ChangeSetView | null;
}

export class ChangeReview extends Disposable {
  private stateValue: ChangesState;
  /** Actions run one at a time, so two quick clicks never check and restore the same file at once. */
  private queue: Promise<void> = Promise.resolve();
  private readonly changes = this.register(new Emitter<ReviewChange>());
  readonly onDidChange = this.changes.event;
  private readonly disposing = this.register(new Emitter<void>());
  /** The chat is going away: its changes leave the editor. */
  readonly onWillDispose = this.disposing.event;

  constructor(
    private readonly ports: ReviewPorts,
    initial: ChangesState = EMPTY_CHANGES,
  ) {
    super();
    this.stateValue = initial;
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.disposing.fire();
    this.ports.flush?.();
    super.dispose();
  }

  get state(): ChangesState {
    return this.stateValue;
  }

  views(sessionId: string | null): ChangeSetView[] {
    return sessionViews(this.stateValue, sessionId, (p) => this.ports.shownPath(p));
  }

  turnStarted(sessionId: string): void {
    this.dispatch({ type: 'turnStarted', sessionId });
  }

  /** An `fs/write_text_file` the client applied: `oldText` is what the file held before it (null: it did not exist). */
  wrote(sessionId: string, path: string, oldText: string | null, newText: string, afterKey: string | null): void {
    this.dispatch({ type: 'wrote', sessionId, path: this.ports.canonical(path), oldText, newText, afterKey });
  }

  /**
   * The turn is over: the diffs its completed tool calls reported are resolved against the files now, and
   * its summary is shown after `afterKey`. Files already recorded from writes are not read again. The
   * subagents the turn started (`children`: their sessions' entries) are part of it: their diffs and cards too.
   */
  async turnEnded(sessionId: string, turnEntries: readonly Entry[], afterKey: string | null, children: ChildEntries = () => []): Promise<void> {
    const written = new Set(openSet(this.stateValue, sessionId)?.files.map((f) => f.path) ?? []);
    const reported: ReportedChange[] = [];
    const diffsNow = reportedDiffs(withSubagents(turnEntries, children)).map((d) => ({ ...d, path: this.ports.canonical(d.path) }));
    for (const [path, diffs] of byPath(diffsNow)) {
      if (written.has(path)) continue;
      try {
        const r = resolveDiffs(await this.ports.files.read(path), diffs);
        const shown = this.ports.shownPath(path);
        if (!r.resolved) {
          // Open diff still shows what was reported (v1 texts); Undo is not offered.
          const first = reportedTexts(diffs[0]!);
          const last = reportedTexts(diffs[diffs.length - 1]!);
          const why =
            last.newText === null ? `${this.ports.agentName()} reported this change without the file's text` : `${shown} no longer holds what ${this.ports.agentName()} reported`;
          reported.push({ path, oldText: first.oldText, agentText: last.newText, blocked: `${why}, so what it held before is not known and Undo is not offered.` });
          continue;
        }
        const allowed = await this.ports.files.mayRestore(path);
        reported.push({
          path,
          oldText: r.oldText,
          agentText: r.agentText,
          blocked: allowed ? null : `${shown} is outside the workspace; ACP Chat does not undo edits there that the agent made itself.`,
        });
      } catch (e) {
        this.ports.log('warn', `changes: could not read ${path} at the end of the turn: ${errorText(e)}`);
      }
    }
    this.dispatch({ type: 'turnEnded', sessionId, afterKey, reported, tools: toolKeysByPath(turnEntries, (p) => this.ports.canonical(p), children) });
  }

  /** Open diff, Keep or Undo on one file (`index`) or on every file of the set (`index` null: Keep All, Undo All). */
  act(setId: string, index: number | null, action: ReviewAction): Promise<void> {
    const run = this.queue.then(() => this.run(setId, index, action));
    this.queue = run.catch((e: unknown) => this.ports.log('error', `changes: ${action} failed: ${errorText(e)}`));
    return this.queue;
  }

  private async run(setId: string, index: number | null, action: ReviewAction): Promise<void> {
    const set = this.stateValue.sets.find((c) => c.id === setId);
    if (!set) return;
    const file = index === null ? undefined : set.files[index];
    if (index !== null && !file) return;
    switch (action) {
      case 'openDiff':
        if (file) this.openDiff(file);
        return;
      case 'keep':
        this.dispatch({ type: 'kept', setId, path: file ? file.path : null });
        return;
      case 'review': {
        if (!file) return;
        const now = file.agentText === null ? null : await this.ports.files.read(file.path).catch(() => null);
        const first = now === null || file.agentText === null ? undefined : placeHunks(file.oldText ?? '', file.agentText, now)[0];
        this.ports.reveal?.(file.path, first?.line ?? 0);
        return;
      }
      case 'undo': {
        if (file) {
          const note = await this.undoFile(set, file);
          if (note) this.ports.explain(note.message, note.current !== undefined && file.agentText !== null ? () => this.compare(file, note.current ?? '') : undefined);
          return;
        }
        return this.undoAll(set);
      }
    }
  }

  /**
   * Undo All of a turn in one step (undoAll.ts): one edit over every file, after one question when a file
   * was edited since the agent (its edits stay; only the agent's lines it did not touch are undone).
   */
  private async undoAll(set: ChangeSet): Promise<void> {
    const agent = this.ports.agentName();
    const plan = async () => {
      const texts = new Map<string, string | null | undefined>();
      for (const f of set.files) if (isOpen(f)) texts.set(f.path, await this.ports.files.read(f.path).catch(() => undefined));
      return planUndoAll(set.files, (p) => texts.get(p));
    };
    const first = await plan();
    if (first.merged.length) {
      const names = first.merged.map((m) => this.ports.shownPath(m.path)).join(', ');
      const stay = first.merged.reduce((n, m) => n + m.kept, 0);
      const message = `${names} changed after ${agent}'s edit. Undo All keeps your edits there and undoes only ${agent}'s lines you did not edit${stay ? ` (${stay} change${stay === 1 ? ' on lines you edited stays' : 's on lines you edited stay'} to review)` : ''}; every other file goes back as it was.`;
      if (this.ports.confirm && !(await this.ports.confirm(message, 'Undo All'))) return;
    }
    // Checked again just before the edit: the question may have waited.
    const p = first.merged.length ? await plan() : first;
    const files = this.ports.files;
    const label = `Undo ${agent}'s edits of this turn`;
    try {
      if (files.restoreAll && p.writes.length) await files.restoreAll(p.writes, label);
      else for (const w of p.writes) await files.restore(w.path, w.text, label);
    } catch (e) {
      return this.ports.explain(`Could not undo ${agent}'s edits of this turn: ${errorText(e)}`);
    }
    for (const path of p.whole) this.dispatch({ type: 'undone', setId: set.id, path });
    for (const m of p.merged) for (const hunk of m.hunks) this.dispatch({ type: 'hunk', setId: set.id, path: m.path, hunk, action: 'undo' });
    for (const l of p.left) this.dispatch({ type: 'conflict', setId: set.id, path: l.path, note: `${this.ports.shownPath(l.path)} ${LEFT_WHY[l.why](agent)}` });
    const open = p.whole.length + p.merged.length + p.left.length;
    if (p.left.length)
      this.ports.explain(
        `Undid ${open - p.left.length} of ${open} files. Left alone: ${p.left.map((l) => `${this.ports.shownPath(l.path)} (${LEFT_WHY[l.why](agent)})`).join('; ')}.`,
      );
  }

  /**
   * A file's text changed (an editor undo of an Undo, a redo, the user's edit): its change follows what the
   * text says now (follow.ts), after any action in flight, so the review's own edits are seen settled.
   */
  fileChanged(path: string): Promise<void> {
    const p = this.ports.canonical(path);
    if (!this.stateValue.sets.some((c) => c.files.some((f) => f.path === p))) return Promise.resolve();
    const run = this.queue.then(async () => {
      const text = await this.ports.files.read(p);
      const note = `${this.ports.shownPath(p)} was edited where ${this.ports.agentName()}'s edit was undone; nothing was written over it. Keep accepts it as it is.`;
      this.dispatch({ type: 'followed', path: p, text, note });
    });
    this.queue = run.catch((e: unknown) => this.ports.log('warn', `changes: could not read ${p} again: ${errorText(e)}`));
    return this.queue;
  }

  /**
   * Keep or Undo one hunk of a file's change (review in the editor). Undo is placed on the file's text
   * now (hunks.ts): refused, with the reason returned, where the user edited those lines since the
   * agent or the hunk is no longer the file's. Returns null when done.
   */
  actOnHunk(setId: string, path: string, hunk: Hunk, action: HunkAction): Promise<string | null> {
    const run = this.queue.then(() => this.runHunk(setId, path, hunk, action));
    this.queue = run.then(
      () => undefined,
      (e: unknown) => this.ports.log('error', `changes: hunk ${action} failed: ${errorText(e)}`),
    );
    return run;
  }

  private async runHunk(setId: string, path: string, hunk: Hunk, action: HunkAction): Promise<string | null> {
    const set = this.stateValue.sets.find((c) => c.id === setId);
    const file = set?.files.find((f) => f.path === path);
    const shown = this.ports.shownPath(path);
    if (!set || !file || !isOpen(file) || file.blocked !== null || file.agentText === null) return `${shown}: this change was already reviewed.`;
    if (action === 'keep' || file.oldText === null) {
      if (action === 'undo') return (await this.undoFile(set, file))?.message ?? null;
      this.dispatch({ type: 'hunk', setId, path, hunk, action });
      return null;
    }
    const current = await this.ports.files.read(path);
    if (current === null) return `${shown} was deleted after ${this.ports.agentName()}'s edit, so Undo left it alone.`;
    const placed = placeHunks(file.oldText, file.agentText, current).find((p) => sameHunk(p.hunk, hunk));
    if (!placed) return `${shown}: this change is no longer the file's (it was reviewed or edited); nothing was undone.`;
    if (placed.conflict)
      return `${shown}: you edited these lines after ${this.ports.agentName()}'s edit, so Undo left them alone (it would overwrite your text). Keep accepts them as they are.`;
    const edit = undoEdit(placed);
    const label = `Undo ${this.ports.agentName()}'s change to ${shown}`;
    const files = this.ports.files;
    if (files.replaceRange) await files.replaceRange(path, current, edit.from, edit.to, edit.text, label);
    else await files.restore(path, current.slice(0, edit.from) + edit.text + current.slice(edit.to), label);
    this.dispatch({ type: 'hunk', setId, path, hunk, action });
    return null;
  }

  /**
   * Rewind: undoes the Changes of `sessionId`'s turns shown after `laterKeys`, newest first, as one edit.
   * `confirm` sees what would be reverted and what is refused (changed since, or not undoable) and says
   * whether to go ahead; the files are checked again just before the edit. Returns the files put back.
   */
  rewind(sessionId: string, laterKeys: ReadonlySet<string>, confirm: (offer: RewindOffer) => Promise<boolean>): Promise<readonly string[]> {
    const run = this.queue.then(() => this.runRewind(sessionId, laterKeys, confirm));
    this.queue = run.then(
      () => undefined,
      (e: unknown) => this.ports.log('error', `changes: rewind failed: ${errorText(e)}`),
    );
    return run;
  }

  private async runRewind(sessionId: string, laterKeys: ReadonlySet<string>, confirm: (offer: RewindOffer) => Promise<boolean>): Promise<readonly string[]> {
    const agent = this.ports.agentName();
    const check = async () => {
      const t = rewindTargets(this.stateValue, sessionId, laterKeys);
      const refused = t.refused.map((r) => ({ path: this.ports.shownPath(r.path), why: r.why }));
      const ready: RewindFile[] = [];
      for (const f of t.files) {
        const now = await this.ports.files.read(f.path).catch(() => undefined);
        if (now === f.expected) ready.push(f);
        else refused.push({ path: this.ports.shownPath(f.path), why: now === null ? `it was deleted after ${agent}'s edit` : `it changed after ${agent}'s edit` });
      }
      return { ready, refused };
    };
    const first = await check();
    if (first.ready.length === 0 && first.refused.length === 0) return [];
    if (!(await confirm({ files: first.ready.map((f) => this.ports.shownPath(f.path)), refused: first.refused }))) return [];
    const { ready } = await check();
    if (ready.length === 0) return [];
    const label = `Undo ${agent}'s edits of the later turns`;
    const items = ready.map((f) => ({ path: f.path, text: f.restoreTo }));
    if (this.ports.files.restoreAll) await this.ports.files.restoreAll(items, label);
    else for (const i of items) await this.ports.files.restore(i.path, i.text, label);
    for (const f of ready) for (const setId of f.setIds) this.dispatch({ type: 'undone', setId, path: f.path });
    return ready.map((f) => this.ports.shownPath(f.path));
  }

  /** Restores the previous text when the file still holds the agent's version; else records why not. */
  private async undoFile(set: ChangeSet, f: FileChange): Promise<{ message: string; current?: string | null } | null> {
    if (!isOpen(f) || f.blocked !== null) return null;
    const shown = this.ports.shownPath(f.path);
    const agent = this.ports.agentName();
    let current: string | null;
    try {
      current = await this.ports.files.read(f.path);
    } catch (e) {
      const message = `Could not read ${shown} to undo ${agent}'s edit: ${errorText(e)}`;
      this.dispatch({ type: 'conflict', setId: set.id, path: f.path, note: message });
      return { message };
    }
    if (current !== f.agentText) {
      const message =
        current === null
          ? `${shown} was deleted after ${agent}'s edit, so Undo left it alone.`
          : `${shown} changed after ${agent}'s edit, so Undo left it alone (it would overwrite those changes). Compare shows ${agent}'s version beside the file now; Keep accepts the file as it is.`;
      this.dispatch({ type: 'conflict', setId: set.id, path: f.path, note: message });
      return { message, current };
    }
    try {
      await this.ports.files.restore(f.path, f.oldText, `Undo ${agent}'s edit to ${shown}`);
    } catch (e) {
      const message = `Could not undo ${agent}'s edit to ${shown}: ${errorText(e)}`;
      this.dispatch({ type: 'conflict', setId: set.id, path: f.path, note: message });
      return { message };
    }
    this.ports.log('info', `changes: undid ${agent}'s edit to ${f.path}${f.oldText === null ? ' (deleted the file it created)' : ''}`);
    this.dispatch({ type: 'undone', setId: set.id, path: f.path });
    return null;
  }

  private openDiff(f: FileChange): void {
    const shown = this.ports.shownPath(f.path);
    if (f.agentText === null) {
      this.ports.explain(`${shown}: ${f.blocked ?? 'the agent\u2019s version is not known'}`);
      return;
    }
    const name = shown.split(/[\\/]/).pop() ?? shown;
    this.ports.openDiff(f.path, f.oldText ?? '', f.agentText, `${name}: before \u2194 ${this.ports.agentName()}'s edit`);
  }

  private compare(f: FileChange, current: string): void {
    const name = this.ports.shownPath(f.path).split(/[\\/]/).pop() ?? f.path;
    this.ports.openDiff(f.path, f.agentText ?? '', current, `${name}: ${this.ports.agentName()}'s version \u2194 now`);
  }

  private dispatch(a: ChangesAction): void {
    const before = this.stateValue;
    const after = reduceChanges(before, a);
    if (after === before) return;
    this.stateValue = after;
    try {
      this.ports.save(after);
    } catch (e) {
      this.ports.log('error', `changes: could not save the change summaries: ${errorText(e)}`);
    }
    const shown = (s: ChangesState) => new Map(s.sets.filter((c) => c.ended).map((c) => [c.id, c]));
    const was = shown(before);
    const now = shown(after);
    for (const [id, set] of now) if (was.get(id) !== set) this.changes.fire({ sessionId: set.sessionId, id, view: setView(set, (p) => this.ports.shownPath(p)) });
    for (const [id, set] of was) if (!now.has(id)) this.changes.fire({ sessionId: set.sessionId, id, view: null });
  }
}
