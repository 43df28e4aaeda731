/**
 * Bulk export of chats from history: each chat as one Markdown file written from its search file (what
 * was said and done, as text; no store is loaded, so exporting a thousand chats costs a thousand small
 * reads). The single-chat export (*Export Transcript as Markdown*) stays the full one.
 */
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { splitLine, unescapeField, type SearchKind } from '../../common/history/searchLines';
import { searchFile } from './searchFiles';
import { fileId } from '../persistence/chatFiles';

const HEADINGS: Record<SearchKind, string> = {
  user: '## You',
  agent: '## Agent',
  thought: '### Thought',
  tool: '- Tool:',
  path: '  - File:',
  question: '## Question',
  subagent: '## Subagent',
  compaction: '## Summary',
};

/** A file name for a chat's export: its title made safe, then its id (unique). */
function exportName(title: string, chatId: string): string {
  const safe =
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .trim()
      .slice(0, 60) || 'chat';
  return `${safe} (${fileId(chatId)}).md`;
}

/** Writes one chat's Markdown into `outDir`; returns the file written. */
export async function exportChat(chatsDir: string, chatId: string, title: string, outDir: string): Promise<string> {
  const parts = [`# ${title.replace(/[\r\n]+/g, ' ')}\n`];
  const lines = createInterface({ input: createReadStream(searchFile(chatsDir, fileId(chatId)), { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const l = splitLine(line);
    if (!l) continue;
    const text = unescapeField(l.escaped);
    const head = HEADINGS[l.kind];
    parts.push(head.startsWith('#') ? `\n${head}\n\n${text}\n` : `${head} ${text.replace(/\s+/g, ' ')}\n`);
  }
  const out = path.join(outDir, exportName(title, chatId));
  await writeFile(out, parts.join(''));
  return out;
}
