/**
 * A demo session's title: the user's own words (the prompt's first text block), as real agents title a
 * session by them, not by what is attached after them (a branch's carried transcript).
 */
export function demoTitle(prompt: readonly { readonly type: string }[], promptText: string): string {
  const own = prompt.find((b): b is { type: 'text'; text: string } => b.type === 'text' && 'text' in b && typeof b.text === 'string');
  return (own ? own.text.trim() : promptText).slice(0, 60) || 'Untitled';
}
