/** Markdown code spans in one line of text, for titles that agents write like "Run `npm test`". */
export type Span = { readonly code: boolean; readonly text: string };

/** A backtick run, then content that neither starts nor ends with a backtick, then a run of the same length. */
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

export function splitCodeSpans(text: string): Span[] {
  const out: Span[] = [];
  let last = 0;
  for (const m of text.matchAll(CODE_SPAN)) {
    if (m.index > last) out.push({ code: false, text: text.slice(last, m.index) });
    const code = m[2]!;
    // CommonMark: one space on each side of a code span is padding.
    out.push({ code: true, text: /^ .* $/.test(code) && code.trim() !== '' ? code.slice(1, -1) : code });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ code: false, text: text.slice(last) });
  return out;
}
