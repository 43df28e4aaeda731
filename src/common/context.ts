/**
 * Editor context the user attaches to the next prompt ("Add Selection / File / Problems to Chat"): held by
 * the chat session, shown as removable chips in the prompt box, sent as ACP content blocks with the prompt.
 * Pure: the VS Code commands gather the text; this decides how each item crosses the wire.
 */
import type { ContentBlock } from './protocol/content';
import { fileUri } from './mentions';

/**
 * `folder`: a folder's file list; `symbol`: a workspace symbol's source (a range of its file); `terminal`:
 * a terminal's selection or its last command's output (no file: `path` is the terminal's name).
 */
export type ContextKind = 'selection' | 'file' | 'problems' | 'folder' | 'symbol' | 'terminal';

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
  /** What the chip says when the path alone would not (a symbol's name, "Terminal: last command"). */
  readonly label?: string;
}

/** What the prompt box shows for one item: no text content, only a label (paths are shown as text). */
export interface ContextChip {
  readonly id: string;
  readonly kind: ContextKind;
  readonly label: string;
  /** Full path and range, then the start of the text that will be sent: the tooltip. */
  readonly detail: string;
  /** How much is sent, for people (`2.1 KB`); empty when unknown. */
  readonly size: string;
}

/** Items larger than this are sent as links: a context command must not blow up the prompt. */
export const MAX_CONTEXT_TEXT = 512 * 1024;
/** All of a prompt's embedded context together: past this, further items go as links (or are cut, with no file to link). */
export const MAX_PROMPT_CONTEXT = 2 * 1024 * 1024;
/** The start of an item's text shown in its chip's tooltip. */
const PREVIEW_CHARS = 600;

function sizeText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function baseName(p: string): string {
  return (
    p
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? p
  );
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
  const label = item.label ?? (item.kind === 'problems' ? `Problems: ${name}` : item.kind === 'folder' ? `${name}/` : `${name}${range}`);
  const size = sizeText(item.size);
  const how = item.text === null ? 'sent as a link' : `${size}, sent as text (as a link to an agent that takes no embedded context)`;
  const preview = item.text === null ? '' : `\n\n${item.text.slice(0, PREVIEW_CHARS)}${item.text.length > PREVIEW_CHARS ? '\n…' : ''}`;
  return { id: item.id, kind: item.kind, label, detail: `${item.path}${range} — ${how}${preview}`, size };
}

/**
 * One content block per item: an embedded `resource` (text with its URI) when the agent advertises
 * `promptCapabilities.embeddedContext` and the text is known, else a `resource_link`, which every agent
 * must accept. Problems have no file of their own to link to, so without embedding they go as text.
 */
export function contextBlocks(items: readonly ContextItem[], embeddedContext: boolean): ContentBlock[] {
  let budget = MAX_PROMPT_CONTEXT;
  return items.map((item): ContentBlock => {
    const uri = itemUri(item);
    // Problems and terminal text have no file to link to: past the budget they are cut, not dropped.
    const noFile = item.kind === 'problems' || item.kind === 'terminal';
    const text = item.text === null ? null : item.text.length <= budget ? item.text : noFile ? `${item.text.slice(0, Math.max(0, budget))}\n…(cut)` : null;
    if (text !== null) budget -= Math.min(text.length, budget);
    if (embeddedContext && text !== null) return { type: 'resource', resource: { uri, mimeType: 'text/plain', text } };
    if (item.kind === 'problems' && text !== null) return { type: 'text', text: `Problems in ${fileUri(item.path)}:\n${text}` };
    if (item.kind === 'terminal' && text !== null) return { type: 'text', text: `${contextChip(item).label}:\n${text}` };
    const name = contextChip(item).label;
    return item.size !== null ? { type: 'resource_link', uri, name, size: item.size } : { type: 'resource_link', uri, name };
  });
}

/** Problems are their file's `#problems`; a terminal has no file, so it is named by a `terminal:` URI. */
function itemUri(item: ContextItem): string {
  if (item.kind === 'problems') return `${fileUri(item.path)}#problems`;
  if (item.kind === 'terminal') return `terminal:${encodeURIComponent(item.path)}`;
  return contextUri(item);
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
