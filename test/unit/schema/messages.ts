/**
 * Schema-valid JSON-RPC traffic of one protocol version, built from the generator: every method of the
 * schema in its direction, requests paired with a generated response (or error), notifications alone.
 * Each message is checked against the whole schema and its params/result against the method's own
 * definition, so a test failure is the client's fault, not the generator's.
 */
import assert from 'node:assert/strict';
import { Generator, type Json, type MethodDefs, methodsOf, rng, type SchemaVersion, loadSchema, validators, type Validators, validInstance } from './generate';

type Dir = 'agent->client' | 'client->agent';
export interface WireMessage {
  readonly dir: Dir;
  readonly msg: { [k: string]: Json };
  /** The method a response answers (for checks). */
  readonly method: string;
  readonly kind: 'request' | 'notification' | 'response';
}

export interface Corpus {
  readonly version: SchemaVersion;
  readonly root: Record<string, unknown>;
  readonly v: Validators;
  readonly gen: Generator;
  readonly methods: MethodDefs[];
  readonly stats: { rejected: number; generated: number };
}

const corpora = new Map<SchemaVersion, Omit<Corpus, 'gen' | 'stats'>>();

/** Compiling a schema takes ~1 s; share it between the tests of one file. */
export function corpus(version: SchemaVersion, seed: number): Corpus {
  let c = corpora.get(version);
  if (!c) {
    const root = loadSchema(version);
    c = { version, root, v: validators(root, `acp-v${version}`), methods: methodsOf(root) };
    corpora.set(version, c);
  }
  return { ...c, gen: new Generator(c.root, rng(seed)), stats: { rejected: 0, generated: 0 } };
}

function instance(c: Corpus, def: string): Json {
  c.stats.generated++;
  return validInstance(c.gen, c.v, def, c.stats);
}

const other = (d: Dir): Dir => (d === 'agent->client' ? 'client->agent' : 'agent->client');

/** `$/cancel_request` is marked `x-side: protocol`: either side sends it. */
function directions(m: MethodDefs): Dir[] {
  return m.method === '$/cancel_request' ? ['agent->client', 'client->agent'] : [m.from];
}

/**
 * One exchange for `m`: the request (or notification) and, for a request, its response. `fix` lets a
 * test pin fields that carry connection state (session ids, the negotiated version).
 */
export function exchange(c: Corpus, m: MethodDefs, n: number, fix?: (part: 'params' | 'result', value: Json) => Json): WireMessage[] {
  const dir = directions(m)[n % directions(m).length] as Dir;
  const rawParams = instance(c, m.params);
  const params = fix ? fix('params', rawParams) : rawParams;
  const extra: { [k: string]: Json } = c.gen.word().length % 5 === 0 ? { _meta: { trace: `t${n}` } } : {};
  if (m.kind === 'notification') {
    const msg = { jsonrpc: '2.0', method: m.method, params, ...extra };
    assertValid(c, msg, dir);
    return [{ dir, msg, method: m.method, kind: 'notification' }];
  }
  // Mostly the ids real peers use, and the schema's odd corners (`null`, strings) now and then.
  const id: Json = n % 13 === 0 && nullIds(c) ? null : n % 3 === 0 ? `r-${n}` : n;
  const request = { jsonrpc: '2.0', id, method: m.method, params, ...extra };
  assertValid(c, request, dir);
  const out: WireMessage[] = [{ dir, msg: request, method: m.method, kind: 'request' }];
  if (m.result === undefined) return out;
  let response: { [k: string]: Json };
  if (n % 11 === 5) {
    response = { jsonrpc: '2.0', id, error: instance(c, 'Error') };
  } else {
    const rawResult = instance(c, m.result);
    response = { jsonrpc: '2.0', id, result: fix ? fix('result', rawResult) : rawResult };
  }
  assertValid(c, response, other(dir));
  out.push({ dir: other(dir), msg: response, method: m.method, kind: 'response' });
  return out;
}

/** v1's RequestId allows `null`; the v2 draft's does not. */
function nullIds(c: Corpus): boolean {
  const defs = c.root.$defs as Record<string, { anyOf?: { type?: string }[] }>;
  return defs.RequestId?.anyOf?.some((a) => a.type === 'null') ?? false;
}

function assertValid(c: Corpus, msg: unknown, dir: Dir): void {
  // The schema cannot tell the sides apart structurally for every message; the whole-schema check
  // plus the per-definition checks in `instance` are what "valid" means here.
  const ok = c.v.message(msg);
  assert.ok(ok, `generated ${dir} message is not valid: ${JSON.stringify(c.v.message.errors?.slice(0, 3))}\n${JSON.stringify(msg)}`);
}

/** Deep copy with `{type:"unsupported", raw}` wrappers replaced by what they keep, and `null` members dropped. */
export function normalize(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(normalize);
  if (typeof x !== 'object' || x === null) return x;
  const rec = x as Record<string, unknown>;
  if (rec.type === 'unsupported' && typeof rec.raw === 'object' && rec.raw !== null && Object.keys(rec).length === 2) return normalize(rec.raw);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (v !== null && v !== undefined) out[k] = normalize(v);
  return out;
}
