/** A session's transcript as Markdown ("Export Transcript as Markdown", copy a message). */
import type { ContentBlock, ToolCallContent } from '../protocol/content';
import { diffChangeLines, isDiffV2, unsupportedType } from '../protocol/contentHelpers';
import type { Entry, SessionState } from '../store/model';

function blocksToMarkdown(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'text':
          return b.text;
        case 'image':
          return `*[image ${b.mimeType}]*`;
        case 'audio':
          return `*[audio ${b.mimeType}]*`;
        case 'resource_link':
          return `[${b.title ?? b.name}](${b.uri})`;
        case 'resource':
          return 'text' in b.resource ? `\n\`\`\`\n${b.resource.text}\n\`\`\`\n*${b.resource.uri}*` : `*[resource ${b.resource.uri}]*`;
        case 'unsupported':
          return `*[unsupported content: ${unsupportedType(b)}]*`;
      }
    })
    .join('');
}

function fence(text: string, lang = ''): string {
  // A fence longer than any backtick run inside, so agent text cannot close it early.
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

function toolContent(c: ToolCallContent): string {
  switch (c.type) {
    case 'content':
      return blocksToMarkdown([c.content]);
    case 'diff':
      if (isDiffV2(c))
        return `Changes:\n\n${diffChangeLines(c)
          .map((l) => `- ${l}`)
          .join('\n')}${c.patch ? `\n\n${fence(c.patch.text, 'diff')}` : ''}`;
      return `Diff of \`${c.path}\`:\n\n${fence(c.newText, 'diff')}`;
    case 'terminal':
      return `*terminal ${c.terminalId}*`;
    case 'unsupported':
      return `*[unsupported tool content: ${unsupportedType(c)}]*`;
  }
}

/**
 * A message's own ATX headings sit under the export's `## User` / `## Agent`: `#` becomes `###` and so
 * on (at most `######`). Lines inside fenced code blocks are left alone.
 */
function nestHeadings(text: string, by = 2): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (f && (fence === null || (f[0] === fence[0] && f.length >= fence.length))) {
        fence = fence === null ? f : null;
        return line;
      }
      if (fence !== null) return line;
      return line.replace(/^( {0,3})(#{1,6})(?=[ \t]|$)/, (_, indent: string, hashes: string) => indent + '#'.repeat(Math.min(6, hashes.length + by)));
    })
    .join('\n');
}

export function entryToMarkdown(e: Entry): string {
  switch (e.kind) {
    case 'user_message':
      return `## User\n\n${nestHeadings(blocksToMarkdown(e.content))}`;
    case 'agent_message':
      return `## Agent\n\n${nestHeadings(blocksToMarkdown(e.content))}`;
    case 'agent_thought':
      return `<details><summary>Thought</summary>\n\n${nestHeadings(blocksToMarkdown(e.content))}\n\n</details>`;
    case 'tool_call': {
      const body = e.content.map(toolContent).filter(Boolean).join('\n\n');
      return `**Tool call** \`${e.toolKind}\` — ${e.title} *(${e.status})*${body ? `\n\n${body}` : ''}`;
    }
    case 'session_message': {
      const r = e.route;
      return `**Message** ${r?.senderSessionId ? `from \`${r.senderSessionId}\`` : ''}${r?.recipientSessionId ? ` to \`${r.recipientSessionId}\`` : ''}\n\n${nestHeadings(blocksToMarkdown(e.content))}`;
    }
    case 'subagent':
      return `**Subagent** — ${e.title ?? e.childSessionId}${e.description ? ` (${e.description})` : ''} *(${e.state ?? 'state not reported'})*`;
    case 'compaction': {
      const summary = e.summary.length > 0 ? `\n\n<details><summary>Summary</summary>\n\n${nestHeadings(blocksToMarkdown(e.summary))}\n\n</details>` : '';
      return `**Context compacted** *(${e.status})*${e.error ? ` — ${e.error}` : ''}${summary}`;
    }
    case 'elicitation': {
      const answer = e.answer
        ? Object.entries(e.answer)
            .map(([k, v]) => `- ${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
            .join('\n')
        : '';
      return `**Question** — ${e.message} *(${e.status}${e.completed ? ', completed' : ''})*${answer ? `\n\n${answer}` : ''}`;
    }
  }
}

export function sessionToMarkdown(s: SessionState, agentName: string): string {
  const head = `# ${s.title ?? 'ACP Chat transcript'}\n\n*Agent: ${agentName} · session ${s.sessionId}*`;
  return [head, ...s.entries.map(entryToMarkdown)].join('\n\n') + '\n';
}
