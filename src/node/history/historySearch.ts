/**
 * Searches the chats' search files (src/common/history/searchLines.ts) for a literal query, streaming hits
 * as they are found. ripgrep when there is one (VS Code ships it; the caller says where): it is given the
 * escaped query as a fixed string (`-F`, after `-e`, so no query is ever an option or a pattern), and
 * every line it returns is checked again here, so only the text field counts (not a line's kind or key).
 * Without ripgrep, the files are read line by line in JS, a few at a time: memory stays at one line per
 * file read, whatever the history's size.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { LiteralQuery, splitLine, unescapeField, type SearchKind } from '../../common/history/searchLines';
import { SEARCH_EXT } from '../persistence/chatFiles';

export interface SearchHit {
  /** The chat's file id (its chat id, made a plain file name). */
  readonly fileId: string;
  readonly kind: SearchKind;
  readonly key: string;
  readonly text: string;
}

export interface SearchRequest {
  readonly dir: string;
  readonly query: string;
  /** Only these chats (file ids); undefined: every chat in `dir`. */
  readonly only?: ReadonlySet<string>;
  /** ripgrep's path; undefined: the JS reader. */
  readonly rg?: string;
  /** Hits kept per chat (further ones are not reported); default unlimited. */
  readonly perChat?: number;
  readonly signal?: AbortSignal;
  /** Hits as they are found, a batch at a time. */
  readonly onHits: (hits: readonly SearchHit[]) => void;
}

export interface SearchOutcome {
  readonly engine: 'rg' | 'js';
  readonly hits: number;
  /** The search was stopped (aborted) before it ended. */
  readonly stopped: boolean;
}

/** Runs one search to its end (or its abort). A failing ripgrep falls back to the JS reader. */
export async function searchHistory(r: SearchRequest): Promise<SearchOutcome> {
  const query = new LiteralQuery(r.query);
  if (query.escaped === '') return { engine: 'js', hits: 0, stopped: false };
  if (r.rg !== undefined) {
    const out = await searchWithRg(r, query, r.rg).catch(() => undefined);
    if (out) return out;
  }
  return searchWithJs(r, query);
}

class HitCounter {
  private readonly perChat = new Map<string, number>();
  total = 0;
  constructor(private readonly limit: number) {}
  /** Whether this chat may report one more hit (counted if so). */
  take(fileId: string): boolean {
    const n = this.perChat.get(fileId) ?? 0;
    if (n >= this.limit) return false;
    this.perChat.set(fileId, n + 1);
    this.total++;
    return true;
  }
}

function hitOf(fileId: string, line: string, query: LiteralQuery): SearchHit | undefined {
  const l = splitLine(line);
  if (!l || !query.matchesEscaped(l.escaped)) return undefined;
  return { fileId, kind: l.kind, key: l.key, text: unescapeField(l.escaped) };
}

function idOfFile(file: string): string | undefined {
  const base = path.basename(file);
  return base.endsWith(SEARCH_EXT) ? base.slice(0, -SEARCH_EXT.length) : undefined;
}

/** ripgrep's arguments: fixed string, case-insensitive, no config or ignore files, file name then NUL before each line. */
function rgArgs(escapedQuery: string, targets: readonly string[], perChat?: number): string[] {
  return [
    '--no-config',
    '--fixed-strings',
    '--ignore-case',
    '--no-heading',
    '--with-filename',
    '--null',
    '--no-line-number',
    '--no-ignore',
    '--hidden',
    '--glob',
    `*${SEARCH_EXT}`,
    ...(perChat !== undefined ? ['--max-count', String(perChat * 4)] : []),
    '-e',
    escapedQuery,
    '--',
    ...targets,
  ];
}

function searchWithRg(r: SearchRequest, query: LiteralQuery, rg: string): Promise<SearchOutcome> {
  const targets = r.only ? [...r.only].map((id) => path.join(r.dir, id + SEARCH_EXT)) : [r.dir];
  if (targets.length === 0) return Promise.resolve({ engine: 'rg', hits: 0, stopped: false });
  const counter = new HitCounter(r.perChat ?? Infinity);
  return new Promise((resolve, reject) => {
    const child = spawn(rg, rgArgs(query.escaped, targets, r.perChat), { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    let rest = '';
    let stopped = false;
    const onAbort = () => {
      stopped = true;
      child.kill();
    };
    r.signal?.addEventListener('abort', onAbort, { once: true });
    if (r.signal?.aborted) onAbort();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      const batch: SearchHit[] = [];
      for (const line of lines) {
        const nul = line.indexOf('\0');
        const id = nul < 0 ? undefined : idOfFile(line.slice(0, nul));
        if (id === undefined) continue;
        const hit = hitOf(id, line.slice(nul + 1), query);
        if (hit && counter.take(id)) batch.push(hit);
      }
      if (batch.length > 0) r.onHits(batch);
    });
    child.on('error', (e) => {
      r.signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code) => {
      r.signal?.removeEventListener('abort', onAbort);
      // 0: matches, 1: none; 2 with output: some file could not be read (a chat deleted meanwhile).
      if (stopped || code === 0 || code === 1 || (code === 2 && counter.total > 0)) resolve({ engine: 'rg', hits: counter.total, stopped });
      else reject(new Error(`rg exited with ${code}`));
    });
  });
}

/** How many files the JS reader reads at once. */
const JS_PARALLEL = 4;

async function searchWithJs(r: SearchRequest, query: LiteralQuery): Promise<SearchOutcome> {
  const ids = r.only ? [...r.only] : (await readdir(r.dir).catch(() => [] as string[])).flatMap((n) => idOfFile(n) ?? []);
  const counter = new HitCounter(r.perChat ?? Infinity);
  let next = 0;
  const worker = async () => {
    while (next < ids.length && !r.signal?.aborted) {
      const id = ids[next++]!;
      const batch: SearchHit[] = [];
      const stream = createReadStream(path.join(r.dir, id + SEARCH_EXT), { encoding: 'utf8' });
      const lines = createInterface({ input: stream, crlfDelay: Infinity });
      try {
        for await (const line of lines) {
          if (r.signal?.aborted) break;
          const hit = hitOf(id, line, query);
          if (hit && counter.take(id)) batch.push(hit);
          else if (hit) break; // this chat's quota is full
        }
      } catch {
        // The file went away (deleted meanwhile) or cannot be read: that chat has no hits.
      } finally {
        lines.close();
        stream.destroy();
      }
      if (batch.length > 0 && !r.signal?.aborted) r.onHits(batch);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JS_PARALLEL, ids.length) }, worker));
  return { engine: 'js', hits: counter.total, stopped: r.signal?.aborted ?? false };
}
