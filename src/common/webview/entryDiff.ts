/**
 * Field-level patches for an entry the webview already has: instead of re-sending a whole tool call on
 * every `tool_call_update` (its raw input, every content block, the status history), the host sends only
 * what differs between the entry the webview holds and the store's new one. Agents often re-send a tool
 * call's full content with each update, so equality is structural (JSON values), not by reference.
 *
 * The matching apply (`applyEntryPatch`) is in the same module so the host's diff and the webview's
 * apply cannot drift apart; the property test in test/unit/store checks them against the store.
 */
import { isRecord } from '../util/guards';

/** What the diff needs of an entry (the webview's `ViewEntry`, or a store `Entry`); a subagent card or a compaction has no content. */
export interface DiffableEntry {
  readonly kind: string;
  readonly key: string;
  readonly content?: readonly unknown[];
}

/** What changed in one object, field by field. Fields absent from every part are unchanged. */
interface FieldPatch {
  /** Fields replaced with a new value (`undefined` is sent as a missing field, so it is listed in `unset`). */
  readonly set?: Readonly<Record<string, unknown>>;
  /** Fields removed from the object. */
  readonly unset?: readonly string[];
  /** Array fields whose old items are all still there: the new items at their end. */
  readonly append?: Readonly<Record<string, readonly unknown[]>>;
  /** Object fields that changed in part: their own patch. */
  readonly nested?: Readonly<Record<string, FieldPatch>>;
}

/** The patch of a whole entry: field changes plus text appended to its content (see `appendText` in the contract). */
export interface EntryPatch extends FieldPatch {
  /** Appended to the content's last block when that is text (the store's streamed-text rule), before `append`. */
  readonly appendText?: string;
}

type Json = Readonly<Record<string, unknown>>;

/**
 * Sets an own property. Agent JSON can carry a key named `__proto__` (JSON.parse makes it an ordinary own
 * property); plain assignment would call the prototype setter instead and lose it.
 */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An own property's value; `obj["__proto__"]` on an object without that own key would read its prototype. */
function own(obj: Json, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Structural equality of JSON-like values (what `postMessage` preserves). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameValue(a[k], own(b, k))) return false;
  return true;
}

function diffObject(prev: Json, next: Json, skip?: ReadonlySet<string>): FieldPatch | null {
  const set: Record<string, unknown> = {};
  const append: Record<string, readonly unknown[]> = {};
  const nested: Record<string, FieldPatch> = {};
  const unset: string[] = [];
  let any = false;
  for (const k of Object.keys(next)) {
    if (skip?.has(k)) continue;
    const a = own(prev, k);
    const b = next[k];
    if (b === undefined) continue;
    if (sameValue(a, b)) continue;
    any = true;
    if (Array.isArray(a) && Array.isArray(b) && b.length > a.length && a.every((x, i) => sameValue(x, b[i]))) put(append, k, b.slice(a.length));
    else if (isRecord(a) && isRecord(b)) {
      const inner = diffObject(a, b);
      if (inner) put(nested, k, inner);
    } else put(set, k, b);
  }
  for (const k of Object.keys(prev)) {
    if (skip?.has(k)) continue;
    if (prev[k] !== undefined && own(next, k) === undefined) {
      unset.push(k);
      any = true;
    }
  }
  if (!any) return null;
  return {
    ...(Object.keys(set).length ? { set } : {}),
    ...(unset.length ? { unset } : {}),
    ...(Object.keys(append).length ? { append } : {}),
    ...(Object.keys(nested).length ? { nested } : {}),
  };
}

/** Whether `b` is text block `a` with text appended (same block otherwise). */
function grownText(a: unknown, b: unknown): string | null {
  if (!isRecord(a) || !isRecord(b)) return null;
  if (a['type'] === 'content' && b['type'] === 'content') return sameValue({ ...a, content: null }, { ...b, content: null }) ? grownText(a['content'], b['content']) : null;
  if (a['type'] !== 'text' || b['type'] !== 'text') return null;
  const ta = a['text'];
  const tb = b['text'];
  if (typeof ta !== 'string' || typeof tb !== 'string' || !tb.startsWith(ta)) return null;
  return sameValue({ ...a, text: '' }, { ...b, text: '' }) ? tb.slice(ta.length) : null;
}

const CONTENT = new Set(['content']);

/**
 * The patch that turns `prev` (what the webview has) into `next`, or null when a whole-entry replace
 * is needed (the entry changed kind or key). An empty patch means nothing the webview keeps changed.
 */
export function diffEntry<E extends DiffableEntry>(prev: E, next: E): EntryPatch | null {
  if (prev.kind !== next.kind || prev.key !== next.key) return null;
  const rest = diffObject(prev as unknown as Json, next as unknown as Json, CONTENT) ?? {};
  const a: readonly unknown[] = prev.content ?? [];
  const b: readonly unknown[] = next.content ?? [];
  if (sameValue(a, b)) return rest;
  // Streamed text: everything but the last block is unchanged and the last text block grew.
  const n = a.length;
  if (n > 0 && b.length >= n && a.slice(0, n - 1).every((x, i) => sameValue(x, b[i]))) {
    const grown = grownText(a[n - 1], b[n - 1]);
    if (grown !== null) {
      const more = b.slice(n);
      // The last block is text, so the webview's appendText extends it and the new blocks follow it.
      return { ...rest, ...(grown ? { appendText: grown } : {}), ...(more.length ? { append: { ...rest.append, content: more } } : {}) };
    }
  }
  if (b.length > n && a.every((x, i) => sameValue(x, b[i]))) return { ...rest, append: { ...rest.append, content: b.slice(n) } };
  return { ...rest, set: { ...rest.set, content: b } };
}

function applyFields(obj: Json, p: FieldPatch): Json {
  const out: Record<string, unknown> = { ...obj, ...p.set };
  for (const k of p.unset ?? []) delete out[k];
  for (const [k, items] of Object.entries(p.append ?? {})) {
    const cur = own(out, k);
    put(out, k, [...(Array.isArray(cur) ? cur : []), ...items]);
  }
  for (const [k, inner] of Object.entries(p.nested ?? {})) {
    const cur = own(out, k);
    put(out, k, applyFields(isRecord(cur) ? cur : {}, inner));
  }
  return out;
}

/**
 * Applies a patch from `diffEntry`. `appendText` goes first, through `appendText` (the contract's rule
 * for streamed text, passed in so the webview's own implementation is the one used), then the fields.
 */
export function applyEntryPatch<E extends DiffableEntry>(entry: E, p: EntryPatch, appendText: (e: E, text: string) => E): E {
  const base = p.appendText ? appendText(entry, p.appendText) : entry;
  // The patch came from diffing two entries of this kind, so the result is an entry of this kind.
  return applyFields(base as unknown as Json, p) as unknown as E;
}
