/**
 * The demo turn's compaction ("/compact", or a prompt that mentions compacting): what a user of the README
 * sees of the `session` client capabilities. To a client that advertised `session.compaction` it sends
 * `compaction_update` in_progress, the summary streamed in `compaction_summary_chunk`s, `completed`, and a
 * second `completed` without a summary (as claude-agent-acp does), with `usage_update`s around it so the
 * context meter fills and empties; a `notice` to a client that advertised `session.notices`. A client
 * without the capability gets an ordinary message instead (the capability's rule: no update it did not ask for).
 */
import type { Session, ToolIo } from './tools';

const SIZE = 200_000;
const SUMMARY = ['## What we did\n', '- Looked at `notes.txt` (one line, "hello").\n', '- Planned the next edit.\n\n', '## Next\n', 'Go on where we stopped.'];

export async function compactTurn(io: ToolIo, s: Session, n: number, signal: AbortSignal): Promise<void> {
  const session = io.caps().session;
  const has = (k: 'compaction' | 'notices') => typeof session === 'object' && session !== null && typeof session[k] === 'object' && session[k] !== null;
  // The context the compaction frees: nearly full before, a summary's worth after.
  io.notify(s, { sessionUpdate: 'usage_update', used: Math.round(SIZE * 0.96), size: SIZE });
  await io.pause(signal);
  if (!has('compaction')) {
    io.notify(
      s,
      {
        sessionUpdate: 'agent_message_chunk',
        messageId: `msg-${s.tag}${n}-a`,
        content: { type: 'text', text: 'Compacted the conversation (this client shows no compaction updates).' },
      },
      true,
    );
  } else {
    const compactionId = `compact-${s.tag}${n}`;
    io.notify(s, { sessionUpdate: 'compaction_update', compactionId, status: 'in_progress' }, true);
    for (const text of SUMMARY) {
      await io.pause(signal);
      io.notify(s, { sessionUpdate: 'compaction_summary_chunk', compactionId, content: { type: 'text', text } }, true);
    }
    await io.pause(signal);
    io.notify(s, { sessionUpdate: 'compaction_update', compactionId, status: 'completed' }, true);
    io.notify(s, { sessionUpdate: 'compaction_update', compactionId, status: 'completed' }, true);
  }
  io.notify(s, { sessionUpdate: 'usage_update', used: Math.round(SIZE * 0.06), size: SIZE, cost: { amount: 0, currency: 'USD' } });
  if (has('notices'))
    io.notify(s, {
      sessionUpdate: 'notice',
      severity: 'info',
      title: 'Conversation compacted',
      description: 'The context went from 96% to 6% full; the summary is what the agent kept.',
    });
}
