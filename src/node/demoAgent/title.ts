/**
 * A demo session's title: the user's own words (the prompt's first text block), as real agents title a
 * session by them, not by what is attached after them (a branch's carried transcript).
 */
export function demoTitle(prompt: readonly { readonly type: string; readonly text?: unknown }[], promptText: string): string {
  const own = prompt.find((b) => b.type === 'text' && typeof b.text === 'string')?.text;
  return (typeof own === 'string' ? own.trim() : promptText).slice(0, 60) || 'Untitled';
}
