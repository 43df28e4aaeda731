/**
 * A live Session in its saved form, and (`restoreSession`) one saved session back into a live Session: its entries (each checked, a repeated key skipped), its
 * reducer bookkeeping (trusted only when no entry was skipped, since it holds entry indexes) and its
 * session fields. What cannot be read becomes a diagnostic; the rest is kept.
 */
import { issueText } from '../util/errors';
import type { Diagnostic, Entry } from './model';
import { parseEntry, plainEntry, type PersistedStore, zPersistedSession } from './persisted';
import { replayFromPlain, replayToPlain } from './replayState';
import { Session } from './session';
import { foldsIn } from './foldRules';

/** What `MessageStore.toJSON` saves of a session: its state, the agent's own title, plain entries and bookkeeping. */
export function savedSession(s: Session): PersistedStore['sessions'][number] {
  const i = s.internals();
  return {
    ...s.state(),
    title: s.title, // the agent's; state()'s is the one shown (the user's wins), saved as userTitle
    entries: s.state().entries.map(plainEntry),
    internals: { open: i.open, echo: i.echo ? { ...i.echo } : null, lastAgentKey: i.lastAgentKey, replay: i.replay ? replayToPlain(i.replay) : null },
  };
}

export function restoreSession(raw: unknown, index: number, diagnostics: Diagnostic[]): Session | undefined {
  const r = zPersistedSession.safeParse(raw);
  if (!r.success) {
    diagnostics.push({ severity: 'error', message: `saved session ${index} is unreadable (${issueText(r.error)}); skipped` });
    return undefined;
  }
  const d = r.data;
  const s = new Session(d.sessionId, d.protocolVersion);
  const entries: Entry[] = [];
  const keys = new Set<string>();
  d.entries.forEach((rawEntry, i) => {
    const e = parseEntry(rawEntry, d.sessionId, i);
    if ('error' in e) diagnostics.push({ severity: 'error', message: e.error, sessionId: d.sessionId });
    else if (keys.has(e.entry.key))
      diagnostics.push({ severity: 'error', message: `saved entry ${i} of session '${d.sessionId}' repeats key '${e.entry.key}'; skipped`, sessionId: d.sessionId });
    else {
      keys.add(e.entry.key);
      entries.push(e.entry);
    }
  });
  const skipped = entries.length !== d.entries.length;
  const ri = d.internals;
  s.restore(entries, {
    // Indexes in the bookkeeping are only trusted when no entry was skipped.
    open: skipped ? -1 : ri.open,
    echo: ri.echo,
    lastAgentKey: ri.lastAgentKey,
    replay: ri.replay && !skipped ? replayFromPlain(ri.replay) : null,
  });
  s.plan = d.plan;
  s.plans = d.plans;
  s.setup = d.setup;
  s.currentModeId = d.currentModeId;
  s.availableModes = d.availableModes;
  s.availableCommands = d.availableCommands;
  s.configOptions = d.configOptions;
  s.usage = d.usage;
  s.title = d.title;
  s.userTitle = d.userTitle ?? null;
  s.updatedAt = d.updatedAt;
  s.terminals = d.terminals;
  s.folds = foldsIn(entries, d.folds);
  return s;
}
