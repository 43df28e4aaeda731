/**
 * What a line the reader refuses was meant to be, so the connection can still answer it: a refused
 * request gets an error reply and a refused response fails the request it answers, instead of leaving
 * either side waiting forever (issue 11, items 7, 8 and 13).
 *
 * `peerOf` reads a parsed value; `TopLevelScanner` reads the raw bytes of a line too large to parse
 * (it never builds the value: it follows strings and brackets and keeps only top-level `id`/`method`).
 */

type PeerKind = 'request' | 'response' | 'notification' | 'unknown';

export interface PeerInfo {
  readonly kind: PeerKind;
  /** The top-level `id` when it is a string or a number (null when absent or of another type). */
  readonly id: string | number | null;
}

/** Classifies a parsed (possibly invalid) JSON-RPC object by its top-level `id` and `method`. */
export function peerOf(value: unknown): PeerInfo {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'unknown', id: null };
  const v = value as { id?: unknown; method?: unknown };
  const id = typeof v.id === 'string' || (typeof v.id === 'number' && Number.isFinite(v.id)) ? v.id : null;
  const hasId = 'id' in v;
  const kind: PeerKind = 'method' in v ? (hasId ? 'request' : 'notification') : hasId ? 'response' : 'unknown';
  return { kind, id };
}

export { nestsDeeperThan } from '../../common/util/depth';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
/** Enough for any real id; longer scalar values are not ids we could answer anyway. */
const MAX_SCALAR = 256;

/**
 * Streams over the bytes of one JSON text and remembers the top-level object's `id` (a string or
 * number) and whether it has a `method` key. Malformed input just yields `unknown`.
 */
export class TopLevelScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: whether the next string is a key. */
  private expectKey = false;
  private stringBytes: number[] | undefined;
  private key: string | undefined;
  /** The raw text of a top-level scalar value being read (for `id`). */
  private scalar: number[] | undefined;
  private rootIsObject: boolean | undefined;
  private hasMethod = false;
  private hasId = false;
  /** The raw text of the top-level `id` value (when it is a scalar). */
  idText: string | undefined;
  bytes = 0;

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let i = 0;
    while (i < chunk.length) {
      if (this.inString && !this.escaped && !this.stringBytes && !this.scalar) {
        // Inside a string nobody keeps (the bulk of a huge line): jump to the next quote or backslash.
        const q = chunk.indexOf(QUOTE, i);
        const bs = chunk.indexOf(BACKSLASH, i);
        const next = q < 0 ? bs : bs < 0 ? q : Math.min(q, bs);
        if (next < 0) return;
        i = next;
      }
      this.step(chunk[i]!);
      i++;
    }
  }

  result(): PeerInfo {
    if (!this.rootIsObject) return { kind: 'unknown', id: null };
    let id: string | number | null = null;
    if (this.idText !== undefined) {
      try {
        const v: unknown = JSON.parse(this.idText);
        if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) id = v;
      } catch {
        id = null;
      }
    }
    const kind: PeerKind = this.hasMethod ? (this.hasId ? 'request' : 'notification') : this.hasId ? 'response' : 'unknown';
    return { kind, id };
  }

  private step(b: number): void {
    if (this.inString) {
      if (this.stringBytes && this.stringBytes.length < MAX_SCALAR) this.stringBytes.push(b);
      if (this.scalar && this.scalar.length < MAX_SCALAR) this.scalar.push(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.stringBytes) {
          this.stringBytes.pop(); // the closing quote
          this.key = Buffer.from(this.stringBytes).toString('utf8');
          this.stringBytes = undefined;
        }
      }
      return;
    }
    if (this.rootIsObject === undefined) {
      if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) return;
      this.rootIsObject = b === OPEN_OBJ;
    }
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.expectKey) {
        this.stringBytes = [];
        this.expectKey = false;
      } else if (this.scalar) this.scalar.push(b);
      return;
    }
    if (b === OPEN_OBJ || b === OPEN_ARR) {
      this.depth++;
      if (this.depth === 1) this.expectKey = true;
      if (this.depth === 2) this.scalar = undefined; // `id` is not a scalar: not an id we can use
      return;
    }
    if (b === CLOSE_OBJ || b === CLOSE_ARR) {
      if (this.depth === 1) this.endValue();
      this.depth--;
      return;
    }
    if (this.depth !== 1) return;
    if (b === COLON) {
      if (this.key === 'method') this.hasMethod = true;
      if (this.key === 'id') {
        this.hasId = true;
        this.scalar = [];
      }
      return;
    }
    if (b === COMMA) {
      this.endValue();
      this.expectKey = true;
      return;
    }
    if (this.scalar && this.scalar.length < MAX_SCALAR) this.scalar.push(b);
  }

  private endValue(): void {
    if (this.key === 'id' && this.scalar) this.idText = Buffer.from(this.scalar).toString('utf8').trim();
    this.scalar = undefined;
    this.key = undefined;
  }
}
