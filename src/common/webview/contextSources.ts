/**
 * Where the prompt box's Add Context menu and its `@` words take context from. The host gathers each
 * (src/vscode/context/contextPicker.ts), asking for the rest where one is needed (which symbol, which folder).
 * Zod-free values, so the webview can import them (the contract's schema uses the same list).
 */
export const CONTEXT_SOURCES = ['pick', 'file', 'editors', 'problems', 'workspaceProblems', 'symbol', 'terminalSelection', 'terminalCommand', 'folder'] as const;
export type ContextSource = (typeof CONTEXT_SOURCES)[number];

export interface MentionSource {
  /** What is typed after `@`. */
  readonly word: string;
  readonly source: ContextSource;
  readonly description: string;
  /** The codicon of its item and chip. */
  readonly icon: string;
}

/** The `@` words that add context rather than name a file. */
const MENTION_SOURCES: readonly MentionSource[] = [
  { word: 'editors', source: 'editors', description: 'Every open editor', icon: 'files' },
  { word: 'problems', source: 'workspaceProblems', description: 'The problems in the workspace', icon: 'warning' },
  { word: 'symbol', source: 'symbol', description: 'A symbol in the workspace…', icon: 'symbol-method' },
  { word: 'terminal', source: 'terminalCommand', description: "The terminal's last command and its output", icon: 'terminal' },
  { word: 'terminal-selection', source: 'terminalSelection', description: "The terminal's selection", icon: 'terminal' },
  { word: 'folder', source: 'folder', description: 'A folder of the workspace…', icon: 'folder' },
];

/** The `@` words a query starts (none once it looks like a path). */
export function matchMentionSources(query: string): MentionSource[] {
  const q = query.toLowerCase();
  if (/[./\\]/.test(q)) return [];
  return MENTION_SOURCES.filter((m) => m.word.startsWith(q));
}
