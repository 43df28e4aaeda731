/**
 * A chat's search file (`<id>.search.txt`, beside its journal): one line per searchable thing the chat
 * shows, so history search reads small text files (with ripgrep, or line by line) and never loads a
 * chat's store. Written whole from the store when the chat is saved (src/node/history/searchFiles.ts).
 *
 *   line 1:  `acp-chat-search 1<TAB><meta>`     the chat's record as it was then (rebuilds the chat list)
 *   then:    `<kind><TAB><key><TAB><text>`      kind: user, agent, thought, tool, path, question, subagent, compaction
 *
 * Every field is escaped (backslash, tab and every C0 control become `\\`, `\t`, `\n`, `\u00XX`), so agent
 * text is always one line, can never add a line or a field, and never holds a NUL (which would make the
 * file look binary to ripgrep). Escaping maps each character on its own, so an escaped query is a
 * substring of an escaped text whenever the query is a substring of the text: a search looks for
 * `escapeField(query)` as a fixed string.
 */
import type { Entry, SessionState } from '../store/model';
import type { ContentBlock } from '../protocol/content';
import { textOf } from '../store/content';

export const SEARCH_HEADER = 'acp-chat-search 1';
/** Agent text beyond this (per entry) is not searched: it bounds the file's size and a line's length. */
const MAX_FIELD_CHARS = 100_000;

export type SearchKind = 'user' | 'agent' | 'thought' | 'tool' | 'path' | 'question' | 'subagent' | 'compaction';

interface SearchLine {
  readonly kind: SearchKind;
  /** The store key of the entry the text is in (where "open at message" goes). */
  readonly key: string;
  readonly text: string;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function escapeField(s: string): string {
  return s.replace(/[\\\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function unescapeField(s: string): string {
  return s.replace(/\\(u[0-9a-f]{4}|.)/g, (_, e: string) =>
    e === 't' ? '\t' : e === 'n' ? '\n' : e === 'r' ? '\r' : e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
  );
}

function blocksText(blocks: readonly ContentBlock[]): string {
  let s = textOf(blocks);
  for (const b of blocks) if (b.type === 'resource_link') s += ` ${b.uri}`;
  return s;
}

/** The searchable lines of one entry (empty texts left out). */
function entryLines(e: Entry): SearchLine[] {
  const key = e.key ?? '';
  const out: SearchLine[] = [];
  const add = (kind: SearchKind, text: string | null | undefined) => {
    const t = (text ?? '').trim();
    if (t) out.push({ kind, key, text: t.length > MAX_FIELD_CHARS ? t.slice(0, MAX_FIELD_CHARS) : t });
  };
  switch (e.kind) {
    case 'user_message':
      add('user', blocksText(e.content));
      break;
    case 'agent_message':
    case 'session_message':
      add('agent', blocksText(e.content));
      break;
    case 'agent_thought':
      add('thought', blocksText(e.content));
      break;
    case 'tool_call': {
      add('tool', e.title);
      const paths = new Set<string>();
      for (const l of e.locations) paths.add(l.path);
      for (const c of e.content) {
        if (c.type !== 'diff') continue;
        const r: Record<string, unknown> = c;
        if (typeof r['path'] === 'string') paths.add(r['path']);
        if (Array.isArray(r['changes']))
          for (const ch of r['changes'] as unknown[])
            if (ch && typeof ch === 'object' && typeof (ch as Record<string, unknown>)['path'] === 'string') paths.add((ch as Record<string, string>)['path']!);
      }
      for (const p of paths) add('path', p);
      break;
    }
    case 'elicitation':
      add('question', e.message);
      break;
    case 'subagent':
      add('subagent', [e.title, e.description].filter(Boolean).join(' · '));
      break;
    case 'compaction':
      add('compaction', textOf(e.summary));
      break;
  }
  return out;
}

/** The whole file: the header with `meta` (JSON of the chat's record), then the lines of every root session (a subagent's
 * transcript is not a place a result can open at). */
export function searchFileText(meta: unknown, sessions: readonly SessionState[]): string {
  const parts = [`${SEARCH_HEADER}\t${escapeField(JSON.stringify(meta) ?? 'null')}\n`];
  for (const s of sessions)
    if (s.parentSessionId === null) for (const e of s.entries) for (const l of entryLines(e)) parts.push(`${l.kind}\t${escapeField(l.key)}\t${escapeField(l.text)}\n`);
  return parts.join('');
}

/** The record saved in a search file's first line; undefined when the line is not a header. */
export function parseHeader(line: string): unknown {
  if (!line.startsWith(`${SEARCH_HEADER}\t`)) return undefined;
  try {
    return JSON.parse(unescapeField(line.slice(SEARCH_HEADER.length + 1))) as unknown;
  } catch {
    return undefined;
  }
}

const KINDS: ReadonlySet<string> = new Set<SearchKind>(['user', 'agent', 'thought', 'tool', 'path', 'question', 'subagent', 'compaction']);

/** One content line, still escaped (undefined: the header, or not a line of ours). */
export function splitLine(line: string): { kind: SearchKind; key: string; escaped: string } | undefined {
  const a = line.indexOf('\t');
  const b = a < 0 ? -1 : line.indexOf('\t', a + 1);
  if (b < 0) return undefined;
  const kind = line.slice(0, a);
  if (!KINDS.has(kind)) return undefined;
  return { kind: kind as SearchKind, key: unescapeField(line.slice(a + 1, b)), escaped: line.slice(b + 1) };
}

/**
 * A literal, case-insensitive query: what a line's text must contain. Never a regular expression: the
 * query is the user's, the text the agent's, and neither is compiled.
 */
export class LiteralQuery {
  readonly escaped: string;
  private readonly folded: string;
  constructor(readonly text: string) {
    this.escaped = escapeField(text);
    this.folded = this.escaped.toLowerCase();
  }
  /** Whether the escaped text of a line holds the query. */
  matchesEscaped(escaped: string): boolean {
    return this.folded !== '' && escaped.toLowerCase().includes(this.folded);
  }
  matches(text: string): boolean {
    return this.folded !== '' && text.toLowerCase().includes(this.text.toLowerCase());
  }
}

/** The match shown in a result: about `width` characters of the text around the first match, on one line. */
export function snippet(text: string, query: string, width = 120): { text: string; start: number; length: number } {
  const flat = text.replace(/\s+/g, ' ');
  const at = Math.max(0, flat.toLowerCase().indexOf(query.replace(/\s+/g, ' ').toLowerCase()));
  const from = Math.max(0, Math.min(at - Math.floor((width - query.length) / 3), flat.length - width));
  const cut = flat.slice(from, from + width);
  const lead = from > 0 ? '…' : '';
  return { text: lead + cut + (from + width < flat.length ? '…' : ''), start: lead.length + at - from, length: Math.min(query.length, cut.length - (at - from)) };
}
