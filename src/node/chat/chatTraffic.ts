/**
 * ChatTraffic: the one way in for everything a chat's transcript is made of. Every JSON-RPC message of
 * the chat's connections (`wire`, the transport's tap), every skipped line, and every event the client
 * adds itself (`record`: output of a terminal it runs, a notice, Changes) is numbered here and handed to
 * the capture, the live conformance check, the store and persistence, each guarded on its own so that a
 * recording or saving failure costs neither the store its message nor the connection its delivery.
 *
 * Owns: the sequence number of the chat's messages (`seq`, continued after the restored entries' so seqs
 * stay unique across restarts), the conformance check of the current connection and the findings of
 * earlier ones, and the agent behaviour report. It owns no transcript state: the store does. What the
 * store changed is its `onDidApply` event (the view shows it), and what the agent sent and the store kept are
 * `onAgentMessage` / `onAgentStored` (the connection's recovery supervisor watches them): the parts built
 * after it subscribe, so it reaches none of them.
 */
import type { MessageStore, CheckedMessage, StoreDelta } from '../../common/store';
import { AgentBehaviour } from '../../common/debug/agentBehaviour';
import { ConformanceChecker, SKIPPED_LINE_NOTE, type Finding } from '../../common/conformance';
import { CLIENT_EVENT_NOTE, keysOfEvent, type ClientEvent, type EntryPlaces } from '../../common/store/clientEvents';
import type { Notice } from '../../common/notices';
import type { Direction } from '../acp/client';
import { errorText } from '../../common/util/errors';
import type { ChatSinks, Log } from './chatPorts';
import { Emitter } from '../../common/util/lifecycle';
import { settleAfterRead } from '../../common/store/chunkRun';

export interface TrafficDeps {
  readonly store: MessageStore;
  readonly sinks: ChatSinks;
  readonly log: Log;
}

export class ChatTraffic {
  /** What the agent advertised and actually does, for the capability report. */
  readonly behaviour = new AgentBehaviour();
  /** The conformance check of the current connection (a new one per connection: ids and capabilities restart). */
  private conformance = new ConformanceChecker();
  /** Findings of earlier connections of this chat (their lines stay valid: seqs keep counting). */
  private earlierFindings: Finding[] = [];
  private seq: number;
  private readonly agentMessages = new Emitter<unknown>();
  /** Every message from the agent, before the store reads it (the recovery supervisor watches for stalls). */
  readonly onAgentMessage = this.agentMessages.event;
  private readonly agentStored = new Emitter<readonly string[]>();
  /** The keys of the attached session's entries a message from the agent inserted or changed (the supervisor: what the store kept). */
  readonly onAgentStored = this.agentStored.event;
  private readonly applied = new Emitter<readonly StoreDelta[]>();
  /** The store changed (a message or a client event): the view shows it, panel and tree. */
  readonly onDidApply = this.applied.event;
  private readonly noted = new Emitter<void>();
  /** Something reached only the capture (a skipped line): the tree's view of it changed. */
  readonly onDidNote = this.noted.event;

  /** After a message the store held (a text chunk joined with the read's next ones): report it once the read is over. */
  private readonly settleLater: () => void;

  constructor(private readonly d: TrafficDeps) {
    // Continue numbering after the restored entries' messages, so seqs stay unique across restarts.
    this.seq = Math.max(0, ...d.store.sessions().flatMap((s) => s.entries.flatMap((e) => e.stats.lines.map(([, last]) => last))));
    this.settleLater = settleAfterRead(d.store, (changes) => this.guard('show', this.seq, () => this.stored('agent->client', changes)));
  }

  /** A new connection starts: a fresh conformance check; the old one's findings are kept. */
  newConnection(protocolVersion: 1 | 2): void {
    this.conformance.finish();
    this.earlierFindings = [...this.findings()];
    this.conformance = new ConformanceChecker({ protocolVersion });
  }

  /** Conformance findings of this chat's connections, for the tree and the capability view. */
  findings(sessionId?: string): readonly Finding[] {
    const all = [...this.earlierFindings, ...this.conformance.findings()];
    return sessionId === undefined ? all : all.filter((f) => f.sessionId === undefined || f.sessionId === sessionId);
  }

  /** One message of the connection, either way (the transport's tap). */
  wire(dir: Direction, msg: unknown, raw?: string, checked?: CheckedMessage): void {
    const seq = ++this.seq;
    const { store, sinks } = this.d;
    this.guard('capture', seq, () => sinks.capture(dir, msg, seq, raw));
    this.guard('check', seq, () => this.conformance.observe(dir, msg, seq, checked));
    this.behaviour.observe(dir, msg);
    if (dir === 'agent->client') this.agentMessages.fire(msg);
    // A text chunk continuing the open message may be held and joined with the rest of the read (chunkRun.ts).
    const changes = checked ? store.ingestChecked(dir, checked, seq, true) : store.ingest(dir, msg, seq);
    this.guard('save', seq, () => sinks.persist(dir, msg, changes, seq));
    this.stored(dir, changes);
    this.settleLater();
  }

  private stored(dir: Direction, changes: readonly StoreDelta[]): void {
    const sid = this.d.store.attachedSessionId();
    if (dir === 'agent->client' && changes.length)
      this.agentStored.fire(changes.flatMap((c) => ((c.type === 'entryInserted' || c.type === 'entryUpdated') && c.sessionId === sid ? [c.entry.key] : [])));
    if (changes.length) this.applied.fire(changes);
  }

  /** A line that was skipped (not JSON-RPC, or unusable): logged, recorded as a capture note and checked. */
  skippedLine(text: string, reason: string, lost: boolean, agent: string): void {
    this.d.log('warn', `${agent} sent a line that was skipped (${reason}): ${text.slice(0, 300)}`);
    // A skipped message may be part of the transcript: say so where the user looks.
    if (lost)
      this.notice({
        severity: 'warning',
        title: `A message from ${agent} was skipped: ${reason.slice(0, 200)}.`,
        description: 'The agent log (ACP: Show Agent Log) has its beginning.',
      });
    const seq = ++this.seq;
    const note = { text: SKIPPED_LINE_NOTE, reason, raw: text };
    this.guard('capture', seq, () => this.d.sinks.capture('note', note, seq));
    this.conformance.observeNote(note, seq);
    this.noted.fire();
  }

  /**
   * The one way in for what the client adds that is not on the wire (terminal output it runs, notices,
   * Changes): numbered like a message, kept in the capture as a note, reduced by the store and saved.
   */
  record(event: ClientEvent): void {
    const seq = ++this.seq;
    this.guard('capture', seq, () => this.d.sinks.capture('note', { text: CLIENT_EVENT_NOTE, event, ...this.placesOf(event) }, seq));
    const changes = this.d.store.record(event, seq);
    this.guard('save', seq, () => this.d.sinks.recorded?.(event));
    if (changes.length) this.applied.fire(changes);
  }

  /** A notice of the client's own, on the attached session (the store keeps it; it is a client event). */
  notice(n: Notice): void {
    this.record({ event: 'notice', sessionId: this.d.store.attachedSessionId(), notice: n });
  }

  /** Clears the attached session's notices (a restart, another session shown). */
  clearNotices(): void {
    const sessionId = this.d.store.attachedSessionId();
    if (this.d.store.notices(sessionId).length > 0) this.record({ event: 'notices_cleared', sessionId });
  }

  /** Where the entries the event names are, for a store replaying the capture (its keys are its own). */
  private placesOf(event: ClientEvent): { places?: EntryPlaces } {
    const keys = new Set(keysOfEvent(event));
    if (keys.size === 0) return {};
    const places: Record<string, readonly [string, number]> = {};
    for (const session of this.d.store.sessions()) {
      session.entries.forEach((e, index) => {
        if (keys.has(e.key)) places[e.key] = [session.sessionId, index];
      });
    }
    return { places };
  }

  private guard(what: string, seq: number, run: () => void): void {
    try {
      run();
    } catch (e) {
      this.d.log('error', `could not ${what} message ${seq}: ${errorText(e)}`);
    }
  }
}
