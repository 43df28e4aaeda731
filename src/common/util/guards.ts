/** Type guards shared by every layer. */

/** A plain JSON object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Compile-time exhaustiveness guard for `switch` statements over discriminated unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}

/**
 * `obj[key]` for a key the agent chose: only the object's own property, never an inherited member
 * (`constructor`, `toString`…), so an agent's name is data whatever it is.
 */
export function ownValue<V>(obj: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}
