/** Small helpers of the conformance checker. */
import { terminalSafe } from '../untrusted';

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
 * Agent text for a one-line report (terminal, Markdown, tree): the project's terminal escaping
 * (`terminalSafe`: controls as control pictures, C1 and bidi marks as `\u` escapes), with line breaks
 * and tabs shown as pictures too so a finding stays on its line.
 */
export function escapeControl(s: string): string {
  return terminalSafe(s).replace(/[\n\t]/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0)));
}
