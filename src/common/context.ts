/**
 * Editor context the user attaches to the next prompt ("Add Selection / File / Problems to Chat"): held by
 * the chat session, shown as removable chips in the prompt box, sent as ACP content blocks with the prompt.
 * Pure: the VS Code commands gather the text; this decides how each item crosses the wire.
 */
import type { ContentBlock } from './protocol/content';
import { fileUri } from './mentions';

type ContextKind = 'selection' | 'file' | 'problems';

export interface ContextItem {
  /** Host-minted id, so the webview can ask to remove one chip. */
  readonly id: string;
  readonly kind: ContextKind;
  /** Absolute path of the file the item comes from. */
  readonly path: string;
  /** 1-based inclusive line range (selection), or null for the whole file. */
  readonly lines: readonly [number, number] | null;
  /**
   * The text to embed (selection, file contents or the formatted diagnostics), captured when the item was
   * added; null when it is too large or unreadable, so only a link can be sent.
   */
  readonly text: string | null;
  readonly size: number | null;
}

/** What the prompt box shows for one item: no text content, only a label (paths are shown as text). */
export interface ContextChip {
  readonly id: string;
  readonly kind: ContextKind;
  readonly label: string;
  /** Full path and range, for the tooltip. */
  readonly detail: string;
}

/** Items larger than this are sent as links: a context command must not blow up the prompt. */
export const MAX_CONTEXT_TEXT = 512 * 1024;

function baseName(p: string): string {
  return p.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? p;
}

/** The item's URI: the file URI, with the line range as a fragment (`#L10-20`, or `#L7` for one line). */
export function contextUri(item: Pick<ContextItem, 'path' | 'lines'>): string {
  const base = fileUri(item.path);
  if (!item.lines) return base;
  const [a, b] = item.lines;
  return a === b ? `${base}#L${a}` : `${base}#L${a}-${b}`;
}

/**
 * A resource URI as people read it, in the form the prompt box's chip uses: `greet.ts:1-2` for
 * `file:///…/greet.ts#L1-2`, `Problems: greet.ts` for its problems.
 */
export function resourceLabel(uri: string): string {
  const hash = uri.indexOf('#');
  const fragment = hash < 0 ? '' : uri.slice(hash + 1);
  const path = (hash < 0 ? uri : uri.slice(0, hash)).replace(/\?.*$/, '');
  let name = path.replace(/\/+$/, '').split('/').pop() || uri;
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: show it as written.
  }
  if (fragment === 'problems') return `Problems: ${name}`;
  const lines = /^L(\d+)(?:-L?(\d+))?$/.exec(fragment);
  if (!lines) return name;
  return lines[2] && lines[2] !== lines[1] ? `${name}:${lines[1]}-${lines[2]}` : `${name}:${lines[1]}`;
}

export function contextChip(item: ContextItem): ContextChip {
  const name = baseName(item.path);
  const range = item.lines ? (item.lines[0] === item.lines[1] ? `:${item.lines[0]}` : `:${item.lines[0]}-${item.lines[1]}`) : '';
  const label = item.kind === 'problems' ? `Problems: ${name}` : `${name}${range}`;
  return { id: item.id, kind: item.kind, label, detail: `${item.path}${range}` };
}

/**
 * One content block per item: an embedded `resource` (text with its URI) when the agent advertises
 * `promptCapabilities.embeddedContext` and the text is known, else a `resource_link`, which every agent
 * must accept. Problems have no file of their own to link to, so without embedding they go as text.
 */
export function contextBlocks(items: readonly ContextItem[], embeddedContext: boolean): ContentBlock[] {
  return items.map((item): ContentBlock => {
    const uri = item.kind === 'problems' ? `${fileUri(item.path)}#problems` : contextUri(item);
    if (embeddedContext && item.text !== null) return { type: 'resource', resource: { uri, mimeType: 'text/plain', text: item.text } };
    if (item.kind === 'problems' && item.text !== null) return { type: 'text', text: `Problems in ${fileUri(item.path)}:\n${item.text}` };
    const name = contextChip(item).label;
    return item.size !== null ? { type: 'resource_link', uri, name, size: item.size } : { type: 'resource_link', uri, name };
  });
}

export interface Problem {
  readonly line: number; // 1-based
  readonly column: number; // 1-based
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source: string | null;
  readonly code: string | null;
}

/** Diagnostics as the agent reads them: one per line, `path:line:col severity [source code]: message`. */
export function formatProblems(path: string, problems: readonly Problem[]): string {
  const name = baseName(path);
  return problems
    .map((p) => {
      const tag = [p.source, p.code].filter((x) => x).join(' ');
      return `${name}:${p.line}:${p.column} ${p.severity}${tag ? ` [${tag}]` : ''}: ${p.message.replace(/\s*\n\s*/g, ' ')}`;
    })
    .join('\n');
}
