/**
 * The demo turn's subagent step ("subagent" in the prompt; only for a client that advertised `subagents`,
 * as the capability requires): the agent starts a child session as Claude Code does with its Agent tool
 * (see shared/agents/README.md, "Subagents"): `subagent_update` (running) and the task as a
 * `session_message` on the parent and on the child, the child's own text and an edit behind a permission
 * request asked on the child's session, then `idle` and the child's reply to the parent.
 *
 * With "background" in the prompt too, the parent's turn does not wait: the child works on while the parent
 * answers, and once both are done the parent runs a turn of its own on the report with no prompt pending
 * (thought, message, usage), as claude-agent-acp does for a background agent.
 */
import { editTool, type Session, type ToolIo } from './tools';

export const SUBAGENT_TITLE = 'Edit demo-edit.txt for me';
export const SUBAGENT_REPORT = 'Report from the subagent: demo-edit.txt was edited. ✅';
const SUBAGENT_STOPPED = 'The subagent was stopped before it finished.';

/** The child's whole life, announcement to reply (on the parent's and the child's sessions). */
export async function subagentTool(io: ToolIo, parent: Session, child: Session, n: number, signal: AbortSignal): Promise<void> {
  const task = `task-${parent.tag}${n}`;
  io.notify(
    parent,
    { sessionUpdate: 'subagent_update', sessionId: child.id, title: SUBAGENT_TITLE, description: 'general-purpose', capabilities: { cancel: {} }, state: { state: 'running' } },
    true,
  );
  const content = [{ type: 'text', text: 'Append a line to demo-edit.txt, then report back.' }];
  io.notify(parent, { sessionUpdate: 'session_message', messageId: task, senderSessionId: parent.id, recipientSessionId: child.id, recipientMessageId: task, content }, true);
  io.notify(child, { sessionUpdate: 'session_message', messageId: task, senderSessionId: parent.id, recipientSessionId: child.id, senderMessageId: task, content }, true);
  try {
    await io.pause(signal);
    io.notify(
      child,
      { sessionUpdate: 'agent_message_chunk', messageId: `msg-${child.tag}${n}-a`, content: { type: 'text', text: 'I will edit the file; that needs your permission.' } },
      true,
    );
    await editTool(io, child, n, signal);
    io.notify(child, { sessionUpdate: 'agent_message_chunk', messageId: `msg-${child.tag}${n}-b`, content: { type: 'text', text: SUBAGENT_REPORT } }, true);
    await io.pause(signal);
  } catch (e) {
    if (!signal.aborted) throw e;
    // Stopped (its own cancel, or the parent's turn's): it says so, and the parent hears it.
    io.notify(parent, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'idle', stopReason: 'cancelled' } }, true);
    io.notify(
      parent,
      {
        sessionUpdate: 'session_message',
        messageId: `${task}:reply`,
        senderSessionId: child.id,
        recipientSessionId: parent.id,
        content: [{ type: 'text', text: SUBAGENT_STOPPED }],
      },
      true,
    );
    return;
  }
  io.notify(parent, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'idle', stopReason: 'end_turn' } }, true);
  io.notify(
    parent,
    { sessionUpdate: 'session_message', messageId: `${task}:reply`, senderSessionId: child.id, recipientSessionId: parent.id, content: [{ type: 'text', text: SUBAGENT_REPORT }] },
    true,
  );
}

/** The parent's own turn after a background subagent finished: no prompt is pending, no end marker but the usage. */
export async function backgroundTurn(io: ToolIo, parent: Session, n: number, signal: AbortSignal): Promise<void> {
  await io.pause(signal);
  io.notify(
    parent,
    { sessionUpdate: 'agent_thought_chunk', messageId: `th-${parent.tag}${n}-bg`, content: { type: 'text', text: 'The background subagent finished; telling the user.' } },
    true,
  );
  await io.pause(signal);
  io.notify(
    parent,
    { sessionUpdate: 'agent_message_chunk', messageId: `msg-${parent.tag}${n}-bg`, content: { type: 'text', text: `The background subagent is done. ${SUBAGENT_REPORT}` } },
    true,
  );
  await io.pause(signal);
  io.notify(parent, { sessionUpdate: 'usage_update', used: 1200 * n + 300, size: 200000 });
}
