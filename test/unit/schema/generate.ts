/**
 * A small seeded generator of instances of the official ACP JSON Schemas (draft 2020-12), and the
 * JSON-RPC messages built from them.
 *
 * Why our own instead of json-schema-faker: the ACP schema does not tie `method` to `params` (any
 * method validates with any params variant), so the messages must be assembled from the `x-method` /
 * `x-side` marks anyway; what is left is ~150 lines over the keywords the schemas use ($ref, allOf with
 * sibling properties, anyOf/oneOf, open unions guarded by `not`, const/enum, nullable type arrays).
 * Every instance is checked with ajv (Ajv2020) by the caller; an instance that fails is regenerated.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = boolean | { readonly [k: string]: unknown };
export type SchemaVersion = 1 | 2;

/** The official schemas as the SDK package publishes them (identical to ../shared/acp/schema). */
export function loadSchema(version: SchemaVersion): Record<string, unknown> {
  const file = require.resolve(`@agentclientprotocol/sdk/schema/v${version}/schema.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** mulberry32: tiny, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'src/a.ts', 'Ünïcode ✓', '', 'x y', '<b>html</b>', 'line\nbreak', '_ext', 'beta', '42'];

function isObj(s: unknown): s is Record<string, unknown> {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

export class Generator {
  private readonly defs: Record<string, Schema>;
  constructor(
    root: Record<string, unknown>,
    private readonly random: () => number,
  ) {
    this.defs = root.$defs as Record<string, Schema>;
  }

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }
  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  private chance(p: number): boolean {
    return this.random() < p;
  }

  word(): string {
    return this.chance(0.7) ? this.pick(WORDS) : `w${this.int(1000)}`;
  }

  def(name: string): Json {
    return this.gen({ $ref: `#/$defs/${name}` }, 0);
  }

  private anyJson(depth: number): Json {
    switch (this.int(depth > 2 ? 4 : 6)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.int(100);
      case 3:
        return this.word();
      case 4:
        return [this.anyJson(depth + 1)];
      default:
        return { [`k${this.int(10)}`]: this.anyJson(depth + 1) };
    }
  }

  private string(s: Record<string, unknown>): string {
    if (s.format === 'date-time') return new Date(Date.UTC(2026, this.int(12), 1 + this.int(28), this.int(24))).toISOString();
    if (s.format === 'uri') return this.pick(['file:///tmp/a.ts', 'https://example.test/x', 'mcp://srv/res']);
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    let w = this.word();
    while (w.length < min) w += 'x';
    return w;
  }

  private number(s: Record<string, unknown>, integer: boolean): number {
    const min = typeof s.minimum === 'number' ? s.minimum : integer ? -5 : -10;
    const max = typeof s.maximum === 'number' ? s.maximum : min + 1000;
    const v = min + this.random() * (max - min);
    return integer ? Math.floor(v) : Math.round(v * 100) / 100;
  }

  private gen(schema: Schema, depth: number): Json {
    if (schema === true) return this.anyJson(depth);
    if (schema === false || !isObj(schema)) throw new Error('cannot generate from a false schema');
    const s = schema;
    if ('const' in s) return s.const as Json;
    if (Array.isArray(s.enum)) return this.pick(s.enum as Json[]);
    const parts: Json[] = [];
    if (typeof s.$ref === 'string') parts.push(this.gen(this.resolve(s.$ref), depth + 1));
    if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) parts.push(this.gen(sub, depth + 1));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const alts = s[key];
      if (Array.isArray(alts)) parts.push(this.gen(this.choose(alts as Schema[], depth), depth + 1));
    }
    const own = this.ownValue(s, depth);
    if (own === undefined) {
      if (parts.length === 0) return this.anyJson(depth);
      if (parts.every(isObj)) return Object.assign({}, ...parts) as Json;
      return parts[0] as Json;
    }
    if (isObj(own)) {
      // Sibling keywords (a union's discriminator const) win over what the referenced parts generated.
      return Object.assign({}, ...parts.filter(isObj), own) as Json;
    }
    return own;
  }

  /** Deep in recursive structures prefer a `null` branch so generation terminates. */
  private choose(alts: Schema[], depth: number): Schema {
    if (depth > 14) {
      const nul = alts.find((a) => isObj(a) && a.type === 'null');
      if (nul !== undefined) return nul;
    }
    return this.pick(alts);
  }

  private resolve(ref: string): Schema {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const target = m ? this.defs[m[1] as string] : undefined;
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return target;
  }

  /** The value this schema's own `type` / `properties` describe, or undefined when it has none. */
  private ownValue(s: Record<string, unknown>, depth: number): Json | undefined {
    let type = s.type;
    if (Array.isArray(type)) {
      const nonNull = type.filter((t) => t !== 'null');
      type = nonNull.length > 0 && (depth > 14 || this.chance(0.2)) && type.includes('null') ? 'null' : this.pick(nonNull.length ? nonNull : type);
    }
    if (type === undefined && (isObj(s.properties) || Array.isArray(s.required))) type = 'object';
    switch (type) {
      case undefined:
        return undefined;
      case 'null':
        return null;
      case 'boolean':
        return this.chance(0.5);
      case 'integer':
        return this.number(s, true);
      case 'number':
        return this.number(s, false);
      case 'string':
        return this.string(s);
      case 'array': {
        const min = typeof s.minItems === 'number' ? s.minItems : 0;
        const n = depth > 10 ? min : min + this.int(3);
        const items = (s.items ?? true) as Schema;
        return Array.from({ length: n }, () => this.gen(items, depth + 1));
      }
      case 'object':
        return this.object(s, depth);
      default:
        throw new Error(`unknown type ${String(type)}`);
    }
  }

  private object(s: Record<string, unknown>, depth: number): Json {
    const props = (isObj(s.properties) ? s.properties : {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const out: { [k: string]: Json } = {};
    for (const [k, sub] of Object.entries(props)) {
      if (required.has(k) || (depth < 12 && this.chance(0.55))) out[k] = this.gen(sub, depth + 1);
    }
    // Required members the object does not describe itself come from the allOf/anyOf parts; if
    // none does, any value is valid.
    for (const k of required) if (!(k in out) && !this.describedElsewhere(s, k)) out[k] = this.anyJson(depth);
    // Unknown members are allowed wherever additionalProperties is not false: the client must keep
    // or ignore them, never fail.
    if (s.additionalProperties !== false && this.chance(0.1)) out[`x_extra${this.int(9)}`] = this.anyJson(depth + 1);
    return out;
  }

  private describedElsewhere(s: Record<string, unknown>, key: string): boolean {
    return typeof s.$ref === 'string' || Array.isArray(s.allOf) || Array.isArray(s.anyOf) || Array.isArray(s.oneOf) || key === '';
  }
}

// ---- messages ---------------------------------------------------------------------------------------

type Direction = 'agent->client' | 'client->agent';

/** One method's definitions in a schema: its params, and its result when it is a request. */
export interface MethodDefs {
  readonly method: string;
  /** Who sends the request/notification. */
  readonly from: Direction;
  readonly params: string;
  readonly result: string | undefined;
  readonly kind: 'request' | 'notification';
}

/** Methods by the schema's `x-method` / `x-side` marks (`x-side` names the side that handles it). */
export function methodsOf(root: Record<string, unknown>): MethodDefs[] {
  const defs = root.$defs as Record<string, Record<string, unknown>>;
  const out: MethodDefs[] = [];
  const byKey = new Map<string, string>();
  for (const [name, d] of Object.entries(defs)) {
    const m = d['x-method'];
    if (typeof m === 'string' && name.endsWith('Response')) byKey.set(m, name);
  }
  for (const [name, d] of Object.entries(defs)) {
    const method = d['x-method'];
    const side = d['x-side'];
    if (typeof method !== 'string' || name.endsWith('Response')) continue;
    const from: Direction = side === 'client' ? 'agent->client' : 'client->agent';
    const result = byKey.get(method);
    out.push({ method, from, params: name, result, kind: result === undefined ? 'notification' : 'request' });
  }
  return out;
}

export interface Validators {
  /** The whole schema: any message of either side. */
  readonly message: ValidateFunction;
  def(name: string): ValidateFunction;
}

export function validators(root: Record<string, unknown>, id: string): Validators {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema(root, id);
  const message = ajv.getSchema(id);
  if (!message) throw new Error(`schema ${id} did not compile`);
  const cache = new Map<string, ValidateFunction>();
  return {
    message,
    def(name) {
      let v = cache.get(name);
      if (!v) {
        v = ajv.compile({ $ref: `${id}#/$defs/${name}` });
        cache.set(name, v);
      }
      return v;
    },
  };
}

/**
 * Generate a schema-valid instance of `defName`, retrying (with the same seeded stream) until ajv
 * accepts it. Counts what was regenerated so a test can assert the generator is mostly right.
 */
export function validInstance(gen: Generator, v: Validators, defName: string, stats: { rejected: number }): Json {
  const check = v.def(defName);
  for (let i = 0; i < 50; i++) {
    const x = gen.def(defName);
    if (check(x)) return x;
    stats.rejected++;
  }
  throw new Error(`could not generate a valid ${defName} in 50 tries: ${JSON.stringify(check.errors?.slice(0, 2))}`);
}
