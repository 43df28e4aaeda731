/**
 * The compaction half of the conformance checker: each `compactionId`'s lifecycle per session. A compaction
 * starts `in_progress` (a `compaction_update`, or a first summary chunk, which the schema lets start one)
 * and ends `completed`, `failed` or `cancelled`; after its end only a repeated `completed` is expected
 * (claude-agent-acp sends one without the summary). A summary chunk for an id no update started is legal
 * but leaves a client nothing to say what runs: reported as a warning. Replays are history: not checked.
 */
import { COMPACTION_TERMINAL } from '../protocol/compaction';
import type { RuleId, Severity } from './rules';
import { quote } from './util';
import type { Json } from './util';

type Report = (rule: RuleId, line: number, message: string, severity?: Severity, sessionId?: string) => void;

export class CompactionTraffic {
  /** By session, then compaction id: the last status and the line that set it. */
  private readonly bySession = new Map<string, Map<string, { status: string; line: number }>>();

  constructor(private readonly report: Report) {}

  update(sid: string, kind: string, u: Json, line: number, replaying: boolean): void {
    const id = u['compactionId'];
    if (typeof id !== 'string') return;
    let known = this.bySession.get(sid);
    if (!known) this.bySession.set(sid, (known = new Map()));
    const prev = known.get(id);
    if (kind === 'compaction_summary_chunk') {
      if (!prev && !replaying)
        this.report(
          'compaction-unknown-id',
          line,
          `compaction_summary_chunk for compaction ${quote(id, 40)}, which no compaction_update started: send compaction_update with status "in_progress" first, so the client can show what runs`,
          'warning',
          sid,
        );
      if (!prev) known.set(id, { status: 'in_progress', line });
      return;
    }
    const status = u['status'];
    if (typeof status !== 'string') return;
    if (!replaying) this.order(id, status, prev, line, sid);
    known.set(id, { status, line });
  }

  private order(id: string, status: string, prev: { status: string; line: number } | undefined, line: number, sid: string): void {
    if (!prev) {
      if (COMPACTION_TERMINAL.has(status))
        this.report(
          'compaction-status-order',
          line,
          `compaction ${quote(id, 40)} is "${status}" without an "in_progress" update first: report the start, so the client shows the compaction while it runs`,
          'warning',
          sid,
        );
      return;
    }
    if (!COMPACTION_TERMINAL.has(prev.status)) return;
    if (status === 'completed' && prev.status === 'completed') return; // a repeated completed (claude-agent-acp)
    this.report(
      'compaction-status-order',
      line,
      `compaction ${quote(id, 40)} is "${status}" after it ended "${prev.status}" (line ${prev.line}): a finished compaction takes no other state; start a new one with a new compactionId`,
      'warning',
      sid,
    );
  }
}
