/** Small helpers of the conformance checker. */

export type Json = Record<string, unknown>;

export const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A short, quoted excerpt of agent text for a one-line message (escaped again where it is printed). */
export function quote(s: string, max = 60): string {
  return JSON.stringify(cut(s, max));
}

/** A short JSON rendering of any value (`missing` for undefined). */
export function show(v: unknown, max = 60): string {
  return v === undefined ? 'missing' : cut(JSON.stringify(v), max);
}

/**
 * Agent text made safe for a terminal or a one-line report: C0/C1 controls, DEL and the invisible
 * bidi/format characters (which can reorder or hide what a reader sees) become `\u{…}` escapes.
 * A minimal local helper: replace it with the project's shared sanitizer once that exists.
 */
export function escapeControl(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}
