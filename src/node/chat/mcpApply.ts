/**
 * How a chat's new MCP choice takes effect (see src/vscode/agents/mcpChoice.ts, which asks for it): the choice is
 * read at each session call, so what is left is when the next call comes, and saying so in the chat.
 */
import type { Notice } from '../../common/notices';
import { noticeText } from '../../common/untrusted';
import type { ChatController } from './chatController';
import type { AgentDoor } from './agentDoor';

/** What applying a choice needs of a chat. */
export type McpChat = Pick<ChatController, 'sessionId' | 'turnState' | 'agent' | 'notice' | 'restart'> & { readonly door: Pick<AgentDoor, 'running' | 'facts'> };

/**
 * Applies a new choice: a running session is reopened with it (restart, then resume or load) where the agent
 * can resume or load; otherwise it waits for a new session. Said in the chat either way.
 */
export async function applyMcpChoice(chat: McpChat, off: readonly string[]): Promise<void> {
  const running = chat.door.running;
  const caps = running ? chat.door.facts()?.capabilities : undefined;
  const offText = off.length ? `off: ${off.map((n) => `“${noticeText(n)}”`).join(', ')}` : 'all on';
  const note = (title: string, description: string): Notice => ({ severity: 'info', key: 'mcp-choice', title, description });
  if (!running || chat.sessionId === null) {
    chat.notice(note(`MCP servers for this chat changed (${offText}).`, "The chat's next session is opened with this choice."));
    return;
  }
  if (!caps?.sessionCapabilities?.resume && !caps?.loadSession) {
    chat.notice(
      note(`MCP servers for this chat changed (${offText}).`, `${chat.agent.name} can neither resume nor load a session, so the change applies to the next new chat session.`),
    );
    return;
  }
  if (chat.turnState === 'busy' || chat.turnState === 'cancelling') {
    // Restarting now would cut the agent's turn short: the user restarts when it is done.
    chat.notice(
      note(
        `MCP servers for this chat changed (${offText}).`,
        `${chat.agent.name} is working: run "ACP: Restart Agent" when the turn is done to reopen the session (it resumes the conversation) with them.`,
      ),
    );
    return;
  }
  await chat.restart();
  chat.notice(
    note(
      `MCP servers for this chat changed (${offText}): the session was reopened with them.`,
      `${chat.agent.name} was restarted and the conversation ${caps.sessionCapabilities?.resume ? 'resumed' : 'loaded'}.`,
    ),
  );
}
