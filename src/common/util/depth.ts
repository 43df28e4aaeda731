/**
 * Deeper nesting is refused: `JSON.parse` copes with any depth, but `JSON.stringify`, structured clone
 * (webview posts) and recursive code downstream overflow the stack somewhere past a few thousand levels.
 * Real ACP messages stay far below this.
 */
export const MAX_NESTING = 256;

/**
 * True when `value` nests arrays/objects deeper than `max` levels. Recursion stops at `max`, so this
 * never overflows the stack itself, whatever the input.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (nestsDeeperThan(v, max - 1)) return true;
    return false;
  }
  for (const k in value) if (nestsDeeperThan((value as Record<string, unknown>)[k], max - 1)) return true;
  return false;
}

/** Whether the JSON `text` parsed as `value` is too deep (each level takes two characters: a short text cannot be). */
export function tooDeep(text: string, value: unknown, max = MAX_NESTING): boolean {
  return text.length > 2 * max && nestsDeeperThan(value, max);
}
