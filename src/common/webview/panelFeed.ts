/**
 * The one path from a chat's message store to the posts its webview receives, in two halves:
 * - PanelSource, on the chat model's side: store deltas -> what the panel must hear about the session
 *   it shows (panelDeltas.ts), plus what the panel shows that is not in the store (turn state, a
 *   snapshot's `reset`), as one event every webview showing the chat listens to;
 * - PanelFeed, on each webview's side: those changes -> coalesced patches (PatchBatcher), posted at most
 *   once per frame when the batch is worth a post, or a snapshot (snapshot.ts) when the webview is new.
 * The live chat, an opened capture, ChatWebview, the benches and the store's property test all run these
 * two, so what is tested and measured is what ships. The webview decodes the posts with WireDecoder.
 * Pure and clock-injected: the caller runs `frame()` once per frame (a timer, or a bench's simulated clock).
 */
import type { StoreDelta } from '../store';
import type { Diagnostic, Entry, SessionState } from '../store/model';
import { Emitter, type IDisposable } from '../util/lifecycle';
import type { FeedMessage, PanelState } from './contract';
import { panelDeltasFor, type PanelDelta } from './panelDeltas';
import { PatchBatcher } from './patchBatcher';
import { snapshotMessages } from './snapshot';

export class PanelSource implements IDisposable {
  private readonly emitter = new Emitter<readonly PanelDelta[]>();
  readonly onDidChange = this.emitter.event;

  /**
   * Tells the panel what `changes` mean for the session it shows (`session` is read only when a field
   * the panel shows changed). `indexOffset` entries are listed before that session's own (an earlier
   * transcript shown above it). Returns the store's diagnostics, for the caller to log.
   */
  storeChanged(
    changes: readonly StoreDelta[],
    shownSessionId: string | null,
    session: SessionState | undefined | (() => SessionState | undefined),
    indexOffset = 0,
  ): readonly Diagnostic[] {
    const { panel, diagnostics } = panelDeltasFor(changes, shownSessionId, session);
    this.fire(indexOffset ? panel.map((c) => (c.type === 'entryInserted' ? { ...c, index: c.index + indexOffset } : c)) : panel);
    return diagnostics;
  }

  /** The transcript was rebuilt (a session/load, a new session): every webview posts a fresh snapshot. */
  reset(): void {
    this.emitter.fire([{ type: 'reset' }]);
  }

  /** What the panel shows that the store does not reduce (turn state, a Changes summary). */
  fire(changes: readonly PanelDelta[]): void {
    if (changes.length) this.emitter.fire(changes);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export class PanelFeed {
  private readonly batcher = new PatchBatcher();
  /** When the oldest change not yet posted arrived (for the batcher's maximum delay); null: none pending. */
  private pendingSince: number | null = null;

  constructor(
    private readonly post: (message: FeedMessage) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Posts a snapshot of `entries` and `panel`; what was pending is dropped (the snapshot has it). */
  snapshot(entries: readonly Entry[], panel: PanelState): void {
    this.pendingSince = null;
    this.batcher.reset(entries, panel);
    for (const m of snapshotMessages(entries, panel)) this.post(m);
  }

  /**
   * Takes a PanelSource's changes. Returns false at a `reset` (what follows it is ignored): the caller
   * posts a fresh snapshot of its model, which has it all.
   */
  changed(changes: readonly PanelDelta[]): boolean {
    for (const c of changes) {
      switch (c.type) {
        case 'entryInserted':
          this.batcher.inserted(c.index, c.entry);
          break;
        case 'entryUpdated':
          this.batcher.updated(c.entry, c.appendedText, c.previous);
          break;
        case 'panel':
          this.batcher.panelChanged(c.fields);
          break;
        case 'terminal':
          this.batcher.terminal(c.terminalId, c.append, c.exit, c.replace);
          break;
        case 'changeSet':
          this.batcher.changeSet(c.id, c.set);
          break;
        case 'reset':
          return false;
      }
    }
    if (this.pendingSince === null && !this.batcher.isEmpty) this.pendingSince = this.now();
    return true;
  }

  /** Whether changes wait for a post. */
  get pending(): boolean {
    return !this.batcher.isEmpty;
  }

  /** Once per frame while changes are pending: posts them when the batch is worth a post (see PatchBatcher). Returns `pending`. */
  frame(): boolean {
    if (this.pendingSince !== null && this.batcher.shouldPost(this.now() - this.pendingSince)) this.flush();
    return this.pending;
  }

  /** Posts what is pending now, worth it or not. */
  flush(): void {
    this.pendingSince = null;
    const ops = this.batcher.take();
    if (ops.length) this.post({ type: 'patch', ops });
  }

  /** Forgets what is pending: the webview is gone, and the snapshot it gets when it is back has it. */
  drop(): void {
    this.pendingSince = null;
    this.batcher.take();
  }
}
