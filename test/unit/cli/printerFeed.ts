// `cli run`'s printer as the run drives it: a message store fed the wire (as the run's tap feeds it), the
// printer reading the store's deltas. For the printer tests that feed updates by hand or a whole capture.
import { readFileSync } from 'node:fs';
import { MessageStore } from '../../../src/common/store';
import { TranscriptPrinter } from '../../../src/node/cli/printer';
import { checkMessage } from '../../../src/common/jsonrpc/rpc';

/** A session/update's params as a test writes them (checked by the store, as the wire's are). */
export interface Update {
  readonly sessionId: string;
  readonly update: object;
}

function keys(): () => string {
  let n = 0;
  return () => `k${++n}`;
}

export class FedPrinter {
  readonly store = new MessageStore({ newKey: keys(), now: () => 0 });
  private readonly printer: TranscriptPrinter;

  /** Asks session/new at once (as the run does), so updates before its answer are the store's to keep. */
  constructor(write: (s: string) => void, warn?: (s: string) => void) {
    this.printer = new TranscriptPrinter(this.store, write, warn);
    this.store.ingest('client->agent', { jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: '/w', mcpServers: [] } });
  }

  /** session/new answered with `sessionId`: the run's session. */
  attach(sessionId: string): void {
    this.printer.deltas(this.store.ingest('agent->client', { jsonrpc: '2.0', id: 1, result: { sessionId } }));
    this.printer.attach(sessionId);
  }

  update(params: Update): void {
    this.printer.deltas(this.store.ingest('agent->client', { jsonrpc: '2.0', method: 'session/update', params }), 'session/update');
  }

  line(s: string, sessionId?: string): void {
    this.printer.line(s, sessionId);
  }
}

/**
 * What `cli run` prints for a capture: every line through the store, the session it attaches to when
 * session/new is answered, and each prompt's `[stop]`. `merge`: as `cli run` feeds the store, text chunks
 * that continue the open message held and joined (chunkRun.ts), the whole capture read as one read.
 */
export function printCapture(file: string, merge = false): { out: string; err: string } {
  let out = '';
  let err = '';
  const store = new MessageStore({ newKey: keys(), now: () => 0 });
  const p = new TranscriptPrinter(
    store,
    (s) => (out += s),
    (s) => (err += s),
  );
  let newId: unknown;
  for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { dir: string; msg?: { id?: unknown; method?: string; result?: { sessionId?: string; stopReason?: string } } };
    const m = r.msg;
    const checked = merge && (r.dir === 'agent->client' || r.dir === 'client->agent') ? checkMessage(m) : undefined;
    p.deltas(checked?.ok ? store.ingestChecked(r.dir as 'agent->client' | 'client->agent', checked, i + 1, true) : store.ingestLine(line, i + 1), m?.method);
    if (r.dir === 'client->agent' && m?.method === 'session/new') newId = m.id;
    if (r.dir !== 'agent->client' || !m) continue;
    if (m.id !== undefined && m.id === newId && typeof m.result?.sessionId === 'string') {
      p.line(`[session] ${m.result.sessionId}`);
      p.attach(m.result.sessionId);
    } else if (typeof m.result?.stopReason === 'string') p.line(`[stop] ${m.result.stopReason}`);
  }
  p.deltas(store.settle());
  return { out, err };
}
