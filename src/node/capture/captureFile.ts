/**
 * Records every JSON-RPC message of a connection to a `.jsonl` capture in the conformance format
 * (`{"seq", "t_ms", "dir", "msg"}` per line), so a session can be inspected, replayed and attached to a
 * bug report. Writes are appended synchronously in order (a crash loses nothing already written); old
 * captures beyond `maxFiles` are deleted when a new one starts.
 */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorText } from '../../common/util/errors';

export type CaptureDirection = 'client->agent' | 'agent->client' | 'note';

export class CaptureFile {
  private seq = 0;
  private readonly t0 = Date.now();
  private failed = false;

  private constructor(
    readonly path: string,
    private readonly onError: (message: string) => void,
  ) {}

  /** Starts a new capture file in `dir` named after the agent and the time, and prunes old ones. */
  static create(dir: string, agentId: string, maxFiles: number, onError: (message: string) => void): CaptureFile {
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const safe = agentId.replace(/[^A-Za-z0-9_.-]/g, '_');
    const file = new CaptureFile(path.join(dir, `${stamp}-${safe}.jsonl`), onError);
    pruneCaptures(dir, Math.max(0, maxFiles - 1));
    return file;
  }

  /** A capture at an exact path (the CLI's `--capture FILE`); truncates it. Throws when it cannot be one. */
  static at(file: string, onError: (message: string) => void): CaptureFile {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`the capture file ${file} is a directory: name a file to write`);
    mkdirSync(path.dirname(file), { recursive: true });
    rmSync(file, { force: true });
    return new CaptureFile(file, onError);
  }

  /**
   * Appends one message. `seq` is the caller's message number when it has one (the chat session numbers
   * every message it feeds the store, so an entry's line numbers find their capture records). `raw` is
   * the exact JSON line the message was read from or written as: it is recorded as is, so a message
   * that cannot be serialised again (nesting too deep for `JSON.stringify`) is still kept. Never throws.
   */
  write(dir: CaptureDirection, msg: unknown, seq?: number, raw?: string): void {
    if (this.failed) return;
    this.seq = seq ?? this.seq + 1;
    let line: string;
    try {
      line = `{"seq":${this.seq},"t_ms":${Date.now() - this.t0},"dir":${JSON.stringify(dir)},"msg":${raw !== undefined && isOneJsonLine(raw) ? raw : (JSON.stringify(msg) ?? 'null')}}\n`;
    } catch (e) {
      // Recording must never break the chat: keep a note in the message's place.
      const note = { text: 'message not recorded', dir, error: e instanceof Error ? e.message : String(e) };
      line = JSON.stringify({ seq: this.seq, t_ms: Date.now() - this.t0, dir: 'note', msg: note }) + '\n';
    }
    try {
      appendFileSync(this.path, line);
    } catch (e) {
      // Recording must never break the chat: report once and stop recording.
      this.failed = true;
      this.onError(`capture disabled, could not write ${this.path}: ${errorText(e)}`);
    }
  }

  /** The seq of the last record written. */
  get lines(): number {
    return this.seq;
  }
}

/** Keeps the newest `keep` `.jsonl` files in `dir`. */
export function pruneCaptures(dir: string, keep: number): string[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t || (a.f < b.f ? 1 : -1));
  const removed = files.slice(keep).map(({ f }) => path.join(dir, f));
  for (const f of removed) rmSync(f, { force: true });
  return removed;
}

/** Lists captures, newest first. */
export function listCaptures(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .reverse()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** The records with the given seqs from an agent's captures (newest files first), for "Show Protocol Messages". */
export function readCaptureRecords(dir: string, agentId: string, seqs: ReadonlySet<number>): { seq: number; t_ms?: number; dir: string; msg: unknown }[] {
  const safe = agentId.replace(/[^A-Za-z0-9_.-]/g, '_');
  const found = new Map<number, { seq: number; t_ms?: number; dir: string; msg: unknown }>();
  for (const file of listCaptures(dir).filter((f) => f.endsWith(`-${safe}.jsonl`))) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const r = JSON.parse(line) as { seq?: unknown; t_ms?: unknown; dir?: unknown; msg?: unknown };
        if (typeof r.seq === 'number' && seqs.has(r.seq) && !found.has(r.seq) && typeof r.dir === 'string') {
          found.set(r.seq, { seq: r.seq, ...(typeof r.t_ms === 'number' ? { t_ms: r.t_ms } : {}), dir: r.dir, msg: r.msg });
        }
      } catch {
        // a torn last line of a capture interrupted by a crash: skip it
      }
    }
    if (found.size === seqs.size) break;
  }
  return [...found.values()].sort((a, b) => a.seq - b.seq);
}

/** A raw line is spliced into a record only if it cannot break the line structure of the file. */
function isOneJsonLine(raw: string): boolean {
  return raw.length > 0 && !raw.includes('\n') && !raw.includes('\r');
}
