/**
 * Per-entry counters for the debug tree. Updating is O(1): the run-length encoded `lines` array is
 * append-only and shared by an entry's successive versions (the store owns it), so extending the
 * current run never copies the history.
 */
import type { EntryStats } from './model';

/** What one ingested message contributed to an entry. */
export interface Touch {
  readonly line: number | undefined;
  readonly now: number;
  /** UTF-8 bytes of text received. */
  readonly bytes: number;
  readonly chunk: boolean;
}

type Run = [number, number];

function recordLine(lines: readonly (readonly [number, number])[], line: number | undefined): void {
  if (line === undefined) return;
  // The store created this array (see newStats) and is its only writer.
  const runs = lines as Run[];
  const last = runs[runs.length - 1];
  if (last !== undefined && (line === last[1] || line === last[1] + 1)) {
    last[1] = line;
    return;
  }
  runs.push([line, line]);
}

export function newStats(t: Touch): EntryStats {
  const lines: Run[] = [];
  recordLine(lines, t.line);
  return { chunks: t.chunk ? 1 : 0, upserts: t.chunk ? 0 : 1, bytes: t.bytes, firstSeen: t.now, lastSeen: t.now, lines };
}

export function touchStats(s: EntryStats, t: Touch): EntryStats {
  recordLine(s.lines, t.line);
  return {
    chunks: t.chunk ? s.chunks + 1 : s.chunks,
    upserts: t.chunk ? s.upserts : s.upserts + 1,
    bytes: s.bytes + t.bytes,
    firstSeen: s.firstSeen,
    lastSeen: t.now,
    lines: s.lines,
  };
}

/** A run of chunks applied as one step (chunkRun.ts): each chunk still counts, with its line. */
export function touchStatsRun(s: EntryStats, lines: readonly (number | undefined)[], bytes: number, now: number): EntryStats {
  for (const line of lines) recordLine(s.lines, line);
  return { chunks: s.chunks + lines.length, upserts: s.upserts, bytes: s.bytes + bytes, firstSeen: s.firstSeen, lastSeen: now, lines: s.lines };
}

/**
 * A replayed message (session/load) that matched an entry we hold: its lines and bytes count, but it
 * does not move `lastSeen`, which is when the entry was last live. A thought's "Thought for N s" is its
 * live span; a replay after a reload moved it to the reload's time, so the shown duration grew with it.
 */
export function touchStatsReplayed(s: EntryStats, t: Touch): EntryStats {
  return { ...touchStats(s, t), lastSeen: s.lastSeen };
}

/** UTF-8 length without allocating (TextEncoder would copy the string). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
