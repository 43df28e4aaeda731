/**
 * What opening a saved chat adds to its store before anyone sees it, as client events (so the journal
 * records them like any other): the terminal views and Changes summaries older versions kept in side
 * files (`<id>.terminals.json`, `<id>.changes.json`), read once and then deleted; the end of every
 * terminal we ran that was still running when the window that ran it went away; the marks on a turn that
 * was running and on permission requests left unanswered (`connection_ended`); and the removal of the
 * client's keyed notices, which spoke of that window's connection.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { MessageStore } from '../../common/store';
import type { ClientEvent } from '../../common/store/clientEvents';
import { parseSavedTerminals } from '../../common/savedTerminals';
import { errorText } from '../../common/util/errors';
import { LEGACY_CHANGES_EXT, LEGACY_TERMINALS_EXT } from './chatFiles';

export interface OpenedChat {
  /** Client events to record (already applied to the store): the caller journals them. */
  readonly events: readonly ClientEvent[];
  readonly problems: readonly string[];
  /** Side files read: delete them once the events are saved. */
  readonly migrated: readonly string[];
}

/** Applies what opening the chat `id` in `dir` adds to `store` (see the file's comment). */
export async function openedChat(dir: string, id: string, store: MessageStore): Promise<OpenedChat> {
  const events: ClientEvent[] = [];
  const problems: string[] = [];
  const migrated: string[] = [];
  const apply = (e: ClientEvent) => {
    store.record(e);
    events.push(e);
  };
  const terminalsFile = path.join(dir, id + LEGACY_TERMINALS_EXT);
  const terminals = await readJson(terminalsFile);
  if (terminals.found) {
    migrated.push(terminalsFile);
    if (terminals.problem) problems.push(terminals.problem);
    const parsed = parseSavedTerminals(terminals.raw);
    problems.push(...parsed.problems);
    // Older versions kept one list per chat: its cards are in the session the chat shows.
    const sessionId = store.attachedSessionId() ?? store.sessions().at(-1)?.sessionId ?? null;
    if (sessionId !== null) {
      for (const t of parsed.terminals) {
        if (store.session(sessionId)?.terminals[t.id] !== undefined) continue;
        const exit = t.exited ? { exit: { exitCode: t.exitCode, signal: t.signal } } : {};
        // The agent's terminals (v2) are recorded as ours: the resume snapshot of an agent terminal corrects it either way.
        apply({ event: 'terminal', sessionId, terminalId: t.id, append: t.output, replace: true, ...exit });
      }
    }
  }
  const changesFile = path.join(dir, id + LEGACY_CHANGES_EXT);
  const changes = await readJson(changesFile);
  if (changes.found) {
    migrated.push(changesFile);
    if (changes.problem) problems.push(changes.problem);
    if (changes.raw !== undefined && store.changes() === undefined) apply({ event: 'changes', saved: changes.raw });
  }
  // The client's keyed notices (a stall, a prompt to resend) were about the connection that went with the window.
  for (const sessionId of [null, ...store.sessions().map((s) => s.sessionId)])
    for (const n of store.notices(sessionId)) if (n.key !== undefined) apply({ event: 'notice_removed', sessionId, key: n.key });
  // The connection went with the window: a turn it was running is interrupted, and what it asked can no longer be answered.
  if (store.hasUnanswered()) apply({ event: 'connection_ended', turn: true });
  // Terminals we ran were stopped with the window that ran them: never "Running…" forever.
  for (const s of store.sessions())
    for (const [terminalId, t] of Object.entries(s.terminals))
      if (t.owner === 'client' && !t.exited) apply({ event: 'terminal', sessionId: s.sessionId, terminalId, append: '', exit: { exitCode: null, signal: null } });
  return { events, problems, migrated };
}

/** Deletes migrated side files (their facts are in the journal now). */
export async function removeMigrated(files: readonly string[], log: (message: string) => void): Promise<void> {
  await Promise.all([...files, ...files.map((f) => `${f}.tmp`)].map((f) => rm(f, { force: true }).catch((e: unknown) => log(`could not delete ${f}: ${errorText(e)}`))));
}

async function readJson(file: string): Promise<{ found: boolean; raw: unknown; problem: string | null }> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return { found: false, raw: undefined, problem: null };
  try {
    return { found: true, raw: JSON.parse(text) as unknown, problem: null };
  } catch (e) {
    return { found: true, raw: undefined, problem: `${path.basename(file)} is not JSON and was dropped: ${errorText(e)}` };
  }
}
