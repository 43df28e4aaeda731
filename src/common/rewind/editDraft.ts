/**
 * What the prompt box opens with when the user edits an earlier message: the message's text, its images
 * and its attached context (as context items again, so they show as chips). Blocks a branch added
 * (the carried transcript) and files the text `@`-mentions (sending resolves the mention again) are
 * left out, so an edit sends what the user sent, not a copy of it on top.
 */
import { isRemotePath } from '../links';
import { parseMentions } from '../mentions';
import type { ContextItem } from '../context';
import type { ContentBlock } from '../protocol/content';
import { isCarriedBlock } from './branchPlan';

export interface EditDraft {
  readonly text: string;
  readonly images: readonly { readonly mimeType: string; readonly data: string }[];
  readonly context: readonly Omit<ContextItem, 'id'>[];
}

/** The local path of a `file:` URI (`file:///C:/a` -> `C:/a`) and its `#L` line range; undefined for anything else. */
export function fileOfUri(uri: string): { path: string; lines: readonly [number, number] | null; problems: boolean } | undefined {
  const m = /^file:\/\/(?:localhost)?(\/[^#?]*)(?:\?[^#]*)?(?:#(.*))?$/i.exec(uri);
  if (!m?.[1]) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  if (/^\/[a-zA-Z]:\//.test(path)) path = path.slice(1);
  if (isRemotePath(path)) return undefined;
  const fragment = m[2] ?? '';
  const range = /^L(\d+)(?:-L?(\d+))?$/.exec(fragment);
  const lines: readonly [number, number] | null = range ? [Number(range[1]), Number(range[2] ?? range[1])] : null;
  return { path, lines, problems: fragment === 'problems' };
}

function baseName(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

export function editDraft(content: readonly ContentBlock[]): EditDraft {
  const images: { mimeType: string; data: string }[] = [];
  const context: Omit<ContextItem, 'id'>[] = [];
  const own = content.filter((b) => !isCarriedBlock(b));
  const text = own.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const mentioned = new Set(parseMentions(text.join('\n')).map((m) => baseName(m.path)));
  for (const b of own) {
    if (b.type === 'image') images.push({ mimeType: b.mimeType, data: b.data });
    else if (b.type === 'resource' || b.type === 'resource_link') {
      const uri = b.type === 'resource' ? b.resource.uri : b.uri;
      const file = fileOfUri(uri);
      if (!file || (file.lines === null && !file.problems && mentioned.has(baseName(file.path)))) continue;
      const raw: unknown = b.type === 'resource' ? (b.resource as { text?: unknown }).text : undefined;
      const body = typeof raw === 'string' ? raw : null;
      const size = b.type === 'resource_link' ? (b.size ?? null) : body === null ? null : body.length;
      context.push({ kind: file.problems ? 'problems' : file.lines ? 'selection' : 'file', path: file.path, lines: file.lines, text: body, size });
    }
  }
  return { text: text.join('\n\n'), images, context };
}
