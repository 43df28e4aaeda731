/**
 * A capture as a readable protocol log: one line per message with direction, method, request id,
 * the request/response pairing (per direction: the two sides' ids are separate spaces) and timing,
 * followed by the message as formatted JSON; the whole is one JSON array (JSON with Comments).
 */
import { isRecord as isObj } from '../util/guards';

export interface CaptureRecord {
  readonly seq: number;
  readonly t_ms?: number;
  readonly dir: string;
  readonly msg: unknown;
}

/** Parses capture lines; bad lines become `null` records so line numbers stay aligned. */
export function parseCapture(text: string): (CaptureRecord | null)[] {
  return text
    .split('\n')
    .filter((l, i, all) => l.trim() !== '' || i < all.length - 1)
    .map((line, i) => {
      try {
        const r = JSON.parse(line) as unknown;
        if (!isObj(r) || typeof r['dir'] !== 'string') return null;
        return { seq: typeof r['seq'] === 'number' ? r['seq'] : i + 1, ...(typeof r['t_ms'] === 'number' ? { t_ms: r['t_ms'] } : {}), dir: r['dir'], msg: r['msg'] };
      } catch {
        return null;
      }
    });
}

export interface LogLine {
  readonly seq: number;
  readonly arrow: '→' | '←' | '·';
  readonly kind: 'request' | 'response' | 'error' | 'notification' | 'note' | 'invalid';
  readonly method: string;
  readonly id: string | null;
  /** For a response: the seq of its request, and the time between them. */
  readonly pairedWith: number | null;
  readonly latencyMs: number | null;
  readonly summary: string;
}

/** Describes every record; responses are paired with the request they answer (per direction). */
export function describeCapture(records: readonly CaptureRecord[]): LogLine[] {
  // Pending requests per direction of the *request*: a response travels the other way.
  const pending = new Map<string, { seq: number; method: string; t: number | undefined }>();
  const out: LogLine[] = [];
  for (const r of records) {
    const arrow = r.dir === 'client->agent' ? '→' : r.dir === 'agent->client' ? '←' : '·';
    const m = r.msg;
    if (r.dir === 'note' || !isObj(m)) {
      out.push({
        seq: r.seq,
        arrow,
        kind: r.dir === 'note' ? 'note' : 'invalid',
        method: '',
        id: null,
        pairedWith: null,
        latencyMs: null,
        summary: r.dir === 'note' ? (JSON.stringify(m) ?? '').slice(0, 120) : 'not a JSON-RPC object',
      });
      continue;
    }
    const id = 'id' in m ? JSON.stringify(m['id']) : null;
    if (typeof m['method'] === 'string') {
      const method = m['method'];
      if (id !== null) {
        pending.set(`${r.dir}|${id}`, { seq: r.seq, method, t: r.t_ms });
        out.push({ seq: r.seq, arrow, kind: 'request', method, id, pairedWith: null, latencyMs: null, summary: summarize(method, m['params']) });
      } else {
        out.push({ seq: r.seq, arrow, kind: 'notification', method, id: null, pairedWith: null, latencyMs: null, summary: summarize(method, m['params']) });
      }
      continue;
    }
    const requestDir = r.dir === 'client->agent' ? 'agent->client' : 'client->agent';
    const req = id !== null ? pending.get(`${requestDir}|${id}`) : undefined;
    if (req && id !== null) pending.delete(`${requestDir}|${id}`);
    const isError = 'error' in m;
    const latency = req?.t !== undefined && r.t_ms !== undefined ? r.t_ms - req.t : null;
    const err = isObj(m['error']) ? m['error'] : undefined;
    out.push({
      seq: r.seq,
      arrow,
      kind: isError ? 'error' : 'response',
      method: req?.method ?? '(unknown request)',
      id,
      pairedWith: req?.seq ?? null,
      latencyMs: latency,
      summary: isError ? `error ${String(err?.['code'])}: ${String(err?.['message'])}` : summarizeResult(m['result']),
    });
  }
  return out;
}

function summarize(method: string, params: unknown): string {
  if (!isObj(params)) return '';
  if (method === 'session/update' && isObj(params['update'])) {
    const u = params['update'];
    const id = u['messageId'] ?? u['toolCallId'];
    const content = isObj(u['content']) && typeof u['content']['text'] === 'string' ? JSON.stringify(u['content']['text'].slice(0, 40)) : '';
    return `${String(u['sessionUpdate'])}${id !== undefined && id !== null ? ` ${String(id)}` : ''}${content ? ` ${content}` : ''}`;
  }
  if (typeof params['sessionId'] === 'string') return `session ${params['sessionId']}`;
  return '';
}

function summarizeResult(result: unknown): string {
  if (!isObj(result)) return result === null ? 'null' : '';
  if (typeof result['stopReason'] === 'string') return `stopReason ${result['stopReason']}`;
  if (typeof result['sessionId'] === 'string') return `sessionId ${result['sessionId']}`;
  if (isObj(result['outcome'])) return `outcome ${String(result['outcome']['outcome'])}${result['outcome']['optionId'] ? ` ${String(result['outcome']['optionId'])}` : ''}`;
  return Object.keys(result).slice(0, 4).join(', ');
}

/** The log as a text document: a header line per message, then its JSON (2-space indent). */
export function formatProtocolLog(records: readonly CaptureRecord[], onlySeqs?: ReadonlySet<number>): string {
  const lines = describeCapture(records).filter((l) => !onlySeqs || onlySeqs.has(l.seq));
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  // One JSON array with a comment before each message: valid JSON with Comments, so the editor shows no
  // errors. Agent text in a comment is kept to one line (a line break would end the comment).
  const oneLine = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, ' ');
  const out: string[] = ['['];
  lines.forEach((l, i) => {
    const r = bySeq.get(l.seq);
    const time = r?.t_ms !== undefined ? ` +${r.t_ms}ms` : '';
    const pair = l.pairedWith !== null ? ` (answers #${l.pairedWith}${l.latencyMs !== null ? ` after ${l.latencyMs} ms` : ''})` : '';
    const id = l.id !== null ? ` id=${l.id}` : '';
    out.push(oneLine(`  // #${l.seq}${time} ${l.arrow} ${l.kind} ${l.method}${id}${pair} ${l.summary}`).trimEnd());
    const json = JSON.stringify(r?.msg ?? null, null, 2).replace(/\n/g, '\n  ');
    out.push(`  ${json}${i < lines.length - 1 ? ',' : ''}`);
  });
  out.push(']');
  return out.join('\n') + '\n';
}

/** Expands run-length encoded [first,last] pairs into a set of line numbers. */
export function expandLines(ranges: readonly (readonly [number, number])[]): Set<number> {
  const s = new Set<number>();
  for (const [a, b] of ranges) for (let i = a; i <= b; i++) s.add(i);
  return s;
}
