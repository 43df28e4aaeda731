/** Type guards shared by every layer. */

/** A plain JSON object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Compile-time exhaustiveness guard for `switch` statements over discriminated unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
