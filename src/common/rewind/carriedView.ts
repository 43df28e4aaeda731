/**
 * What the panel shows of a branch's carried transcript: the blocks a branch put in front of its first
 * prompt (branchPlan.ts marks them) folded into one line that says what was sent, and how big it is;
 * opened, the transcript itself (when it was embedded) or the file the agent was pointed to (a link).
 */
import type { ContentBlock } from '../protocol/content';
import { isRecord } from '../util/guards';
import { CARRIED_MESSAGES_META, isCarriedBlock } from './branchPlan';

export interface CarriedView {
  /** The line that told the agent what the attachment is. */
  readonly lead: string | null;
  /** The transcript's Markdown when it went embedded; null when the agent got a link to it. */
  readonly markdown: string | null;
  /** Where the transcript was written (the link, or the resource's URI). */
  readonly uri: string | null;
  /** Its size in bytes, when known. */
  readonly bytes: number | null;
  /** The messages it holds, when the branch counted them. */
  readonly messages: number | null;
}

/** A user message's content split into the carried transcript (null: none) and the message's own blocks. */
export function splitCarried(content: readonly ContentBlock[]): { readonly carried: CarriedView | null; readonly own: readonly ContentBlock[] } {
  const carried = content.filter(isCarriedBlock);
  if (carried.length === 0) return { carried: null, own: content };
  let lead: string | null = null;
  let markdown: string | null = null;
  let uri: string | null = null;
  let bytes: number | null = null;
  let messages: number | null = null;
  for (const b of carried) {
    if (b.type === 'text') lead = b.text;
    else if (b.type === 'resource' || b.type === 'resource_link') {
      const meta: unknown = b._meta;
      const n = isRecord(meta) ? meta[CARRIED_MESSAGES_META] : undefined;
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) messages = n;
      if (b.type === 'resource_link') {
        uri = b.uri;
        bytes = b.size ?? null;
      } else {
        uri = b.resource.uri;
        const text: unknown = (b.resource as { text?: unknown }).text;
        if (typeof text === 'string') {
          markdown = text;
          bytes = new TextEncoder().encode(text).length;
        }
      }
    }
  }
  return { carried: { lead, markdown, uri, bytes, messages }, own: content.filter((b) => !isCarriedBlock(b)) };
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  return kb < 1024 ? `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB` : `${(kb / 1024).toFixed(1)} MB`;
}

/** The folded line: "Earlier conversation sent with this message · 4 messages · 1.2 KB (as a link)". */
export function carriedSummary(v: CarriedView): string {
  const parts = ['Earlier conversation sent with this message'];
  if (v.messages !== null) parts.push(`${v.messages} ${v.messages === 1 ? 'message' : 'messages'}`);
  if (v.bytes !== null) parts.push(sizeText(v.bytes));
  return parts.join(' · ') + (v.markdown === null ? ' (as a link to the file)' : '');
}
