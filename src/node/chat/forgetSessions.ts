/** Deleting a chat from history: what the agent is asked to forget (see ChatService.deleteChat). */
import { errorText } from '../../common/util/errors';
import type { ChatController } from './chatController';

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * Asks the chat's agent to forget the chat's sessions: `session/close` for the one it has open (work
 * stops, resources go), then `session/delete` for each (they leave its `session/list`). Each only when
 * advertised; failures are logged and never keep the chat from being deleted here.
 */
export async function forgetChatSessions(chat: ChatController, log: Log): Promise<void> {
  await chat.start().catch(() => undefined);
  const client = chat.client;
  if (!client || client.isClosed) {
    log('warn', `${chat.agent.name} is not running: its own copy of the deleted chat's sessions was left alone`);
    return;
  }
  const caps = client.agentCapabilities?.sessionCapabilities;
  const current = chat.sessionId;
  if (current !== null && caps?.close) {
    await client.closeSession(current).then(
      () => log('info', `session/close ${current}`),
      (e: unknown) => log('warn', `session/close of ${current} failed: ${errorText(e)}`),
    );
  }
  if (caps?.delete) {
    for (const s of chat.sessions()) {
      await client.deleteSession(s.sessionId).then(
        () => log('info', `session/delete ${s.sessionId}`),
        (e: unknown) => log('warn', `session/delete of ${s.sessionId} failed: ${errorText(e)}`),
      );
    }
  }
}
