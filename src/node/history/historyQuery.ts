/**
 * What the history view shows for a query and filter (historyContract.ts): without a query, the chats the
 * filter keeps, a page at a time; with one, chats whose title holds it at once, then the chats whose text
 * holds it as the search files yield them (searchHistory), a few hits each: the first ones at once (the
 * first results of a keystroke must not wait for a batch), then about every 30 ms.
 * A new query stops the search of the previous one. Free of VS Code: the view gives it its sources.
 */
import type { ChatRecord } from '../../common/chats/chatIndex';
import type { HistoryChoices, HistoryGroup, HistoryRow, HostToHistory } from '../../common/history/historyContract';
import { chatState, filterChats, type HistoryFilter, type LiveState } from '../../common/history/historyFilter';
import { LiteralQuery, snippet } from '../../common/history/searchLines';
import { searchHistory, type SearchHit } from './historySearch';
import { fileId } from '../persistence/chatFiles';

export interface HistorySource {
  /** Every chat, archived ones too. */
  records(): readonly ChatRecord[];
  live(chatId: string): LiveState | undefined;
  title(chatId: string): string;
  agentName(agentId: string): string;
  /** The chats' folder (undefined: chats are not saved, so only titles are searched). */
  dir(): string | undefined;
  rg(): string | undefined;
  now(): number;
}

export const PAGE = 200;
/** Hits shown per chat. */
export const HITS_PER_CHAT = 5;
const POST_EVERY_MS = 30;

export class HistoryQuery {
  private search: AbortController | undefined;
  private current: { seq: number; text: string; filter: HistoryFilter; chats: ChatRecord[] } | undefined;
  /** Chats found by the current query's search so far (what "all matching" means while it has a query). */
  private found = new Set<string>();
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly src: HistorySource,
    private readonly post: (m: HostToHistory) => void,
  ) {}

  /** Runs a query (text '' : the list); the previous one's search stops. Resolves when this one's search ended. */
  run(seq: number, text: string, filter: HistoryFilter): Promise<void> {
    this.search?.abort();
    this.search = undefined;
    const now = this.src.now();
    const day = new Date(now);
    day.setHours(0, 0, 0, 0);
    const chats = filterChats(this.src.records(), filter, (id) => this.src.live(id), now, day.getTime());
    this.current = { seq, text, filter, chats };
    this.found = new Set();
    const choices = this.choices();
    if (text.trim() === '') {
      this.post({ type: 'list', seq, from: 0, rows: chats.slice(0, PAGE).map((r) => this.row(r)), total: chats.length, choices });
      this.done = Promise.resolve();
      return this.done;
    }
    const query = new LiteralQuery(text);
    const byFile = new Map(chats.map((r) => [fileId(r.id), r]));
    const groups = new Map<string, HistoryGroup>();
    const titled = chats.filter((r) => query.matches(this.src.title(r.id)));
    for (const r of titled) {
      groups.set(r.id, { row: this.row(r), inTitle: true, hits: [] });
      this.found.add(r.id);
    }
    this.post({ type: 'results', seq, groups: [...groups.values()], done: false, choices });
    const dir = this.src.dir();
    if (dir === undefined || chats.length === 0) {
      this.post({ type: 'results', seq, groups: [], done: true, choices, ...(dir === undefined ? { note: 'Chats are not saved in this window: only titles are searched.' } : {}) });
      return (this.done = Promise.resolve());
    }
    const ac = new AbortController();
    this.search = ac;
    let changed = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let posted = false;
    const flush = (last: boolean) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (ac.signal.aborted && !last) return;
      const out = [...changed].flatMap((id) => groups.get(id) ?? []);
      changed = new Set();
      if (out.length > 0 || last) this.post({ type: 'results', seq, groups: out, done: last, choices });
    };
    const onHits = (hits: readonly SearchHit[]) => {
      for (const h of hits) {
        const r = byFile.get(h.fileId);
        if (!r) continue;
        const g = groups.get(r.id) ?? { row: this.row(r), inTitle: false, hits: [] };
        if (g.hits.length >= HITS_PER_CHAT) continue;
        const s = snippet(h.text, text);
        groups.set(r.id, { ...g, hits: [...g.hits, { key: h.key, kind: h.kind, snippet: s.text, start: s.start, length: s.length }] });
        changed.add(r.id);
        this.found.add(r.id);
      }
      if (!posted && changed.size > 0) {
        posted = true;
        flush(false);
      } else timer ??= setTimeout(() => flush(false), POST_EVERY_MS);
    };
    const rg = this.src.rg();
    this.done = searchHistory({ dir, query: text, only: new Set(byFile.keys()), perChat: HITS_PER_CHAT, signal: ac.signal, onHits, ...(rg !== undefined ? { rg } : {}) }).then(
      (out) => {
        if (!out.stopped) flush(true);
      },
      () => flush(true),
    );
    return this.done;
  }

  /** The next page of the list, when `seq` is still the current query. */
  more(seq: number, shown: number): void {
    const c = this.current;
    if (!c || c.seq !== seq || c.text.trim() !== '') return;
    this.post({ type: 'list', seq, from: shown, rows: c.chats.slice(shown, shown + PAGE).map((r) => this.row(r)), total: c.chats.length, choices: this.choices() });
  }

  /** Every chat the current query and filter match (a running search: those found so far). */
  async matching(): Promise<string[]> {
    const c = this.current;
    if (!c) return [];
    if (c.text.trim() === '') return c.chats.map((r) => r.id);
    await this.done;
    return c.chats.filter((r) => this.found.has(r.id)).map((r) => r.id);
  }

  dispose(): void {
    this.search?.abort();
  }

  private row(r: ChatRecord): HistoryRow {
    return {
      chatId: r.id,
      title: this.src.title(r.id),
      agent: this.src.agentName(r.agentId),
      folder: r.folder ?? null,
      updatedAt: r.updatedAt,
      state: chatState(r, this.src.live(r.id)),
      unread: r.unread === true,
    };
  }

  private choices(): HistoryChoices {
    const records = this.src.records();
    const agents = [...new Set(records.map((r) => r.agentId))].map((id) => ({ id, name: this.src.agentName(id) }));
    const folders = [...new Set(records.flatMap((r) => (r.folder ? [r.folder] : [])))].sort();
    return { agents, folders };
  }
}
