/**
 * What the panel must hear about a batch of store deltas for the session it shows: new and updated
 * entries (with the appended text when that is all that changed) and the session fields that changed.
 * Shared by live chats and opened captures; pure, so it is tested without VS Code.
 */
import type { StoreDelta } from '../store';
import type { Diagnostic, Entry, SessionState } from '../store/model';
import { sessionPanelFields, type PanelState, type SessionPanelFields } from './contract';
import { assertNever } from '../util/guards';
import type { ChangeSetView } from '../changes/view';

/** A change the panel forwards to the webview. */
export type PanelDelta =
  | { readonly type: 'inserted'; readonly index: number; readonly entry: Entry }
  /** `previous` is the entry before the change (set when the store knows it), for field-level patches. */
  | { readonly type: 'updated'; readonly entry: Entry; readonly appendedText?: string; readonly previous?: Entry }
  | { readonly type: 'panel'; readonly fields: Partial<PanelState> }
  | { readonly type: 'terminal'; readonly terminalId: string; readonly append: string; readonly replace?: true; readonly exit?: { exitCode: number | null; signal: string | null } }
  /** A turn's Changes summary was added or changed, or is gone (null). */
  | { readonly type: 'changeSet'; readonly id: string; readonly set: ChangeSetView | null }
  /** The transcript was rebuilt (a session/load, a new session): send a fresh snapshot. */
  | { readonly type: 'reset' };

/**
 * `session` is read only when a session field changed: pass a function to skip building the state for
 * the many changes (streamed text) that need none. Runs once per message: it allocates nothing it does
 * not return.
 */
export function panelDeltasFor(
  changes: readonly StoreDelta[],
  shownSessionId: string | null,
  session: SessionState | undefined | (() => SessionState | undefined),
): { panel: PanelDelta[]; diagnostics: Diagnostic[] } {
  const panel: PanelDelta[] = [];
  const diagnostics: Diagnostic[] = [];
  let fields: Set<keyof SessionPanelFields> | undefined;
  for (const c of changes) {
    switch (c.type) {
      case 'sessionAdded':
        break;
      case 'entryInserted':
        if (c.sessionId === shownSessionId) panel.push({ type: 'inserted', index: c.index, entry: c.entry });
        break;
      case 'entryUpdated':
        if (c.sessionId === shownSessionId) panel.push(updated(c.entry, c.appendedText, c.previous));
        break;
      case 'sessionChanged':
        // The session's setup reaches the panel as its roots (the folders paths are shown relative to).
        if (c.sessionId === shownSessionId) for (const f of c.fields) if (isPanelField(f) || f === 'setup') (fields ??= new Set()).add(f === 'setup' ? 'roots' : f);
        break;
      case 'diagnostic':
        diagnostics.push(c.diagnostic);
        break;
      case 'terminal':
        if (c.sessionId === shownSessionId) panel.push(terminalChange(c));
        break;
      case 'notices':
        if (c.sessionId === shownSessionId) panel.push({ type: 'panel', fields: { notices: c.notices } });
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
    panel.push({ type: 'panel', fields: changed as Partial<SessionPanelFields> });
  }
  return { panel, diagnostics };
}

function terminalChange(c: Extract<StoreDelta, { type: 'terminal' }>): PanelDelta {
  return { type: 'terminal', terminalId: c.terminalId, append: c.append, ...(c.replace ? { replace: c.replace } : {}), ...(c.exit ? { exit: c.exit } : {}) };
}

/** Spelled out rather than spread (per streamed chunk): only the optional fields that are set. */
function updated(entry: Entry, appendedText: string | undefined, previous: Entry | undefined): PanelDelta {
  if (appendedText !== undefined) return previous ? { type: 'updated', entry, appendedText, previous } : { type: 'updated', entry, appendedText };
  return previous ? { type: 'updated', entry, previous } : { type: 'updated', entry };
}

const PANEL_FIELDS = new Set<string>(Object.keys(sessionPanelFields(undefined)));
function isPanelField(f: string): f is keyof SessionPanelFields {
  return PANEL_FIELDS.has(f);
}
