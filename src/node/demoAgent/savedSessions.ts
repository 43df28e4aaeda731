/**
 * Sessions the demo agent "already had" before this process started, as a real agent keeps the sessions of
 * its own CLI on disk: `ACP_DEMO_SESSIONS_FILE` names a JSON array of `{sessionId, cwd, title?, updatedAt?,
 * prompt, answer}`, each a one-turn conversation that `session/list` lists and `session/load` replays. It
 * lets a client's import of an agent's own sessions be tested against a fresh agent process (the demo's
 * sessions otherwise live in its memory only). A bad file is reported on stderr and gives no sessions.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import type { Session } from './tools';

const zSaved = z.array(
  z.object({
    sessionId: z.string().min(1),
    cwd: z.string(),
    title: z.string().nullish(),
    updatedAt: z.string().nullish(),
    prompt: z.string(),
    answer: z.string(),
  }),
);

export function savedSessions(file: string | undefined, warn: (m: string) => void): Map<string, Session> {
  const out = new Map<string, Session>();
  if (!file) return out;
  let parsed: z.infer<typeof zSaved>;
  try {
    parsed = zSaved.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    warn(`ACP_DEMO_SESSIONS_FILE ${file} ignored: ${e instanceof Error ? e.message : String(e)}`);
    return out;
  }
  for (const s of parsed) {
    // The tag keeps the ids this process mints in the session apart from the saved turn's.
    out.set(s.sessionId, {
      id: s.sessionId,
      cwd: s.cwd,
      history: [
        { sessionUpdate: 'user_message_chunk', messageId: `saved-user-${s.sessionId}`, content: { type: 'text', text: s.prompt } },
        { sessionUpdate: 'agent_message_chunk', messageId: `saved-msg-${s.sessionId}`, content: { type: 'text', text: s.answer } },
      ],
      modeId: 'ask',
      model: 'demo-fast',
      title: s.title ?? null,
      updatedAt: s.updatedAt ?? new Date(0).toISOString(),
      turn: undefined,
      turns: 1,
      tag: 's.',
    });
  }
  return out;
}
