/**
 * Demo commands that show a feature each without writing an agent (issue 38 item 11): `/ask` a question
 * form (`elicitation/create`, to a client that advertised form elicitation), `/long` a long streamed
 * answer (long enough to scroll, with headings, lists and code), `/code` a code block that names its file
 * (Apply to file), and `/compact` (compaction.ts). A
 * subagent is `/subagent`, the ordinary turn with a subagent step (agent.ts).
 */
import * as z from 'zod';
import { ClientMethods } from '../../common/protocol/methods';
import type { Session, ToolIo } from './tools';
import { compactTurn } from './compaction';
import { CODE_ANSWER } from './content';

type Turn = (io: ToolIo, s: Session, n: number, signal: AbortSignal) => Promise<void>;

/** The showcase turn a prompt asks for, if any. */
export function showcaseTurn(command: string | undefined, promptText: string): Turn | undefined {
  if (command === 'compact' || /\bcompact/i.test(promptText)) return compactTurn;
  if (command === 'ask') return askTurn;
  if (command === 'long') return longTurn;
  if (command === 'code') return (io, s, n, signal) => say(io, s, `msg-${s.tag}${n}-a`, CODE_ANSWER, signal, 40);
  return undefined;
}

/** The form `/ask` shows: one field of each kind the form supports. */
const ASK_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Project name', description: 'What the demo should call your project', minLength: 1, maxLength: 40 },
    language: { type: 'string', title: 'Language', enum: ['TypeScript', 'Python', 'Rust', 'Go'], default: 'TypeScript' },
    tests: { type: 'boolean', title: 'Write tests too', default: true },
    files: { type: 'integer', title: 'How many files', minimum: 1, maximum: 10, default: 3 },
  },
  required: ['name', 'language'],
} as const;

const zAnswer = z.looseObject({ action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.unknown()).optional() });

async function say(io: ToolIo, s: Session, messageId: string, text: string, signal: AbortSignal, piece = 24): Promise<void> {
  for (let i = 0; i < text.length; i += piece) {
    await io.pause(signal);
    io.notify(s, { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text: text.slice(i, i + piece) } }, true);
  }
}

async function askTurn(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  const id = `msg-${s.tag}${n}-a`;
  const form = io.caps().elicitation?.form;
  if (form === undefined || form === null) return say(io, s, id, 'This client shows no question forms (it did not advertise `elicitation.form`).', signal);
  await say(io, s, id, 'A few questions before I start:', signal);
  const answer = await io.request(
    ClientMethods.elicitationCreate,
    { sessionId: s.id, mode: 'form', message: 'Tell me about the project', requestedSchema: ASK_SCHEMA },
    zAnswer,
    signal,
  );
  const b = `msg-${s.tag}${n}-b`;
  if (answer.action !== 'accept') return say(io, s, b, `\n\nYou chose **${answer.action}**: nothing was asked of you after all.`, signal);
  const lines = Object.entries(answer.content ?? {}).map(([k, v]) => `- ${k}: \`${JSON.stringify(v)}\``);
  await say(io, s, b, `\n\nThanks. You answered:\n\n${lines.join('\n')}`, signal);
}

/** About 8,000 characters of Markdown: enough to scroll, collapse and search in. */
export function longAnswer(): string {
  const parts = ['# A long answer\n\nThis answer is long on purpose: scroll up while it streams, and the view stays where you are.\n'];
  for (let i = 1; i <= 20; i++) {
    parts.push(
      `\n## Part ${i}\n\nParagraph ${i} explains one more idea in plain words, with **bold**, *italics* and \`inline code\`, so the renderer has something to do on every line. It goes on a little longer than a short answer would.\n`,
    );
    parts.push(`\n- point ${i}.1: lists render as lists\n- point ${i}.2: links like [the README](README.md) open in the editor\n- point ${i}.3: nothing here is HTML\n`);
    if (i % 4 === 0) parts.push(`\n\`\`\`ts\nexport function part${i}(x: number): number {\n  return x * ${i};\n}\n\`\`\`\n`);
  }
  parts.push('\n## The end\n\nThat was the whole answer.');
  return parts.join('');
}

async function longTurn(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  await say(io, s, `msg-${s.tag}${n}-a`, longAnswer(), signal, 40);
}
