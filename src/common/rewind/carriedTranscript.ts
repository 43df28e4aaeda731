/**
 * The earlier conversation a branch carries into a new session when the agent cannot fork at a message:
 * Markdown the agent reads as context. Messages are carried as text; tool calls are never replayed, only
 * named in a line each (their output may be stale, and re-running them is the agent's call); thoughts
 * and attached file contents stay behind (files are named: their current text is in the workspace).
 * The text is capped: whole older sections are left out first, with a marker saying how much.
 */
import type { ContentBlock } from '../protocol/content';
import type { Entry } from '../store/model';

/** Largest carried transcript, in characters (a long chat must not crowd out the agent's context). */
const MAX_CARRIED_CHARS = 100_000;

export interface CarriedTranscript {
  readonly markdown: string;
  /** Sections (messages and tool lines) left out to stay under the cap; 0 when all fit. */
  readonly omitted: number;
  /** The messages (yours and the agent's) it holds, for the panel's summary of it. */
  readonly messages: number;
}

const isMessage = (section: string): boolean => section.startsWith('## ') || section.startsWith('[…] ## ');

function blockText(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'resource_link':
      return `[attached: ${b.uri}]`;
    case 'resource':
      return `[attached: ${b.resource.uri}]`;
    case 'unsupported':
      return '[content of an unsupported type]';
  }
}

/** One section per entry worth carrying; consecutive tool lines of one answer form one section. */
function sections(entries: readonly Entry[], agentName: string): string[] {
  const out: string[] = [];
  let tools: string[] = [];
  const flushTools = () => {
    if (tools.length) out.push(tools.join('\n'));
    tools = [];
  };
  for (const e of entries) {
    if (e.kind === 'tool_call') {
      tools.push(`- Tool call (not replayed): ${oneLine(e.title) || e.toolKind} — ${e.status}`);
      continue;
    }
    if (e.kind === 'elicitation') {
      tools.push(`- Question from the agent: ${oneLine(e.message)} — ${e.status}`);
      continue;
    }
    if (e.kind === 'subagent') {
      tools.push(`- Subagent (not replayed): ${oneLine(e.title ?? '') || e.childSessionId} — ${e.state ?? 'state not reported'}`);
      continue;
    }
    if (e.kind === 'agent_thought' || e.kind === 'session_message' || e.kind === 'compaction') continue;
    flushTools();
    const body = e.content.map(blockText).join('\n\n').trim();
    if (body === '') continue;
    out.push(`## ${e.kind === 'user_message' ? 'User' : oneLine(agentName) || 'Agent'}\n\n${body}`);
  }
  flushTools();
  return out;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * The transcript of `entries` (the history before the branch point) as Markdown, at most `max`
 * characters. Newer sections win: older ones are dropped whole, and a last section that alone is too
 * long keeps its end.
 */
export function carriedTranscript(entries: readonly Entry[], agentName: string, max = MAX_CARRIED_CHARS): CarriedTranscript {
  const head = '# Earlier conversation\n\nCarried over from an earlier session, up to the message being edited. Tool calls are listed, not replayed.';
  const parts = sections(entries, agentName);
  const marker = (n: number) => `> [${n} earlier ${n === 1 ? 'part' : 'parts'} of the conversation left out: the carried transcript is limited to ${max} characters.]`;
  const join = (kept: readonly string[], omitted: number) => [head, ...(omitted ? [marker(omitted)] : []), ...kept].join('\n\n') + '\n';
  let start = 0;
  while (start < parts.length && join(parts.slice(start), start).length > max) start++;
  if (start < parts.length || parts.length === 0) {
    const kept = parts.slice(start);
    return { markdown: join(kept, start), omitted: start, messages: kept.filter(isMessage).length };
  }
  // Not even the newest section fits: keep its end.
  const last = parts[parts.length - 1] ?? '';
  const room = Math.max(0, max - join([], parts.length).length - 20);
  const cut = `[…] ${last.slice(last.length - room)}`;
  return { markdown: join([cut], parts.length - 1), omitted: parts.length - 1, messages: isMessage(cut) ? 1 : 0 };
}
