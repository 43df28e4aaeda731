/**
 * What the panel must hear about a batch of store deltas for the session it shows: the store's own entry
 * and terminal deltas of that session, passed on as they are (no copy, no rename), and the session fields
 * that changed, as one `panel` change with their values. Shared by live chats and opened captures; pure, so
 * it is tested without VS Code.
 */
import type { StoreDelta } from '../store';
import type { Diagnostic, SessionState } from '../store/model';
import { sessionPanelFields, type PanelState, type SessionPanelFields } from './contract';
import { assertNever } from '../util/guards';
import type { ChangeSetView } from '../changes/view';

/**
 * A change the panel forwards to the webview: the store's deltas of the shown session's entries and
 * terminals as the store made them, and three of the panel's own: session or panel fields with their
 * values (`panel`), a Changes summary (`changeSet`) and `reset`, which the store does not make.
 */
export type PanelDelta =
  | Extract<StoreDelta, { type: 'entryInserted' | 'entryUpdated' | 'terminal' }>
  | { readonly type: 'panel'; readonly fields: Partial<PanelState> }
  /** A turn's Changes summary was added or changed, or is gone (null). */
  | { readonly type: 'changeSet'; readonly id: string; readonly set: ChangeSetView | null }
  /** The transcript was rebuilt (a session/load, a new session): send a fresh snapshot. */
  | { readonly type: 'reset' };

const NONE: readonly never[] = [];
const NOTHING = { panel: NONE, diagnostics: NONE };

/**
 * `session` is read only when a session field changed: pass a function to skip building the state for
 * the many changes (streamed text) that need none. Runs once per message, and for every expanded subagent's
 * view on every batch of the chat, most of them another session's: it allocates nothing it does not return
 * (nothing at all when nothing applies; subagents.bench.ts, eight children streaming at once).
 */
export function panelDeltasFor(
  changes: readonly StoreDelta[],
  shownSessionId: string | null,
  session: SessionState | undefined | (() => SessionState | undefined),
): { readonly panel: readonly PanelDelta[]; readonly diagnostics: readonly Diagnostic[] } {
  let panel: PanelDelta[] | undefined;
  let diagnostics: Diagnostic[] | undefined;
  let fields: Set<keyof SessionPanelFields> | undefined;
  for (const c of changes) {
    switch (c.type) {
      case 'sessionAdded':
        break;
      case 'entryInserted':
      case 'entryUpdated':
      case 'terminal':
        if (c.sessionId === shownSessionId) (panel ??= []).push(c);
        break;
      case 'sessionChanged':
        // The session's setup reaches the panel as its roots (the folders paths are shown relative to).
        if (c.sessionId === shownSessionId) for (const f of c.fields) if (isPanelField(f) || f === 'setup') (fields ??= new Set()).add(f === 'setup' ? 'roots' : f);
        break;
      case 'diagnostic':
        (diagnostics ??= []).push(c.diagnostic);
        break;
      case 'notices':
        if (c.sessionId === shownSessionId) (panel ??= []).push({ type: 'panel', fields: { notices: c.notices } });
        break;
      case 'changesRecorded':
        break; // the Changes review shows its sets itself (`changeSet`)
      default:
        assertNever(c, 'store change');
    }
  }
  if (fields) {
    const all = sessionPanelFields(typeof session === 'function' ? session() : session);
    const changed: Partial<Record<keyof SessionPanelFields, unknown>> = {};
    for (const f of fields) changed[f] = all[f];
    (panel ??= []).push({ type: 'panel', fields: changed as Partial<SessionPanelFields> });
  }
  return panel || diagnostics ? { panel: panel ?? NONE, diagnostics: diagnostics ?? NONE } : NOTHING;
}

const PANEL_FIELDS = new Set<string>(Object.keys(sessionPanelFields(undefined)));
function isPanelField(f: string): f is keyof SessionPanelFields {
  return PANEL_FIELDS.has(f);
}
