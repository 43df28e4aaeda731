/**
 * History's view of the live chats: which run a turn or wait for the user now (kept here, for this
 * window's live chats only), and what lasts in the chat index: how the last turn ended (`ended`) and the
 * folder the agent works in (`folder`). Derived from the panel state each chat already publishes.
 */
import type { ChatIndex } from '../../common/chats/chatIndex';
import type { LiveState } from '../../common/history/historyFilter';
import { Emitter, type IDisposable } from '../../common/util/lifecycle';
import type { PanelDelta } from '../../common/webview/panelDeltas';
import type { TurnState } from '../../common/webview/contract';

const RUNNING: ReadonlySet<TurnState> = new Set(['busy', 'cancelling']);

export class HistoryMarks {
  private readonly states = new Map<string, LiveState>();
  private readonly changed = new Emitter<void>();
  /** A live chat started or ended a turn, or began or stopped waiting for the user. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly index: () => ChatIndex | undefined) {}

  live(chatId: string): LiveState | undefined {
    return this.states.get(chatId);
  }

  /** Follows one live chat (working in `cwd`) until the returned disposable is disposed. */
  watch(chatId: string, cwd: string, onDidChange: (listener: (changes: readonly PanelDelta[]) => void) => IDisposable): IDisposable {
    if (this.index()?.get(chatId)?.folder !== cwd) this.index()?.update(chatId, { folder: cwd });
    let turn: TurnState | null = null;
    let asks = { permissions: 0, elicitations: 0 };
    const sub = onDidChange((changes) => {
      for (const c of changes) {
        if (c.type !== 'panel') continue;
        const f = c.fields;
        if (f.permissions) asks = { ...asks, permissions: f.permissions.length };
        if (f.elicitations) asks = { ...asks, elicitations: f.elicitations.length };
        if (f.turn !== undefined) {
          const was = turn;
          turn = f.turn;
          if (was !== null && RUNNING.has(was) && !RUNNING.has(f.turn))
            this.index()?.update(chatId, { ended: f.turn === 'idle' && (f.lastTurnEnd ?? null) === null ? 'finished' : 'failed' });
        }
        if (f.lastTurnEnd === 'error' || f.lastTurnEnd === 'interrupted') this.index()?.update(chatId, { ended: 'failed' });
        this.set(chatId, { running: turn !== null && RUNNING.has(turn), needsYou: asks.permissions + asks.elicitations > 0 });
      }
    });
    return {
      dispose: () => {
        sub.dispose();
        if (this.states.delete(chatId)) this.changed.fire();
      },
    };
  }

  private set(chatId: string, s: LiveState): void {
    const old = this.states.get(chatId);
    if (old && old.running === s.running && old.needsYou === s.needsYou) return;
    this.states.set(chatId, s);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
