/**
 * What the lazily loaded highlighter (dist/highlight.js, webview/highlighter/main.ts) hands the panel: a
 * plain tree of text and scope names, never HTML. The panel builds the spans itself (codeHighlight.ts),
 * every piece of code a text node, so nothing an agent writes in a code block can become markup.
 */
export type HighlightNode = string | { readonly scope: string; readonly children: readonly HighlightNode[] };

export interface Highlighter {
  /** The block's tree for a language name or alias (`ts`, `py`…), or null when the language is not bundled. */
  highlight(code: string, lang: string): readonly HighlightNode[] | null;
}

/** The global the chunk sets when it has run, and the event it fires then. */
export const HIGHLIGHTER_GLOBAL = '__acpHighlighter';
export const HIGHLIGHTER_READY = 'acp-highlighter-ready';
