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
  const door = chat.door;
  if (!door.running) {
    log('warn', `${chat.agent.name} is not running: its own copy of the deleted chat's sessions was left alone`);
    return;
  }
  const close = door.operation('close');
  const forget = door.operation('delete');
  const current = chat.sessionId;
  if (current !== null && close) {
    await close(current).then(
      () => log('info', `session/close ${current}`),
      (e: unknown) => log('warn', `session/close of ${current} failed: ${errorText(e)}`),
    );
  }
  if (forget) {
    for (const s of chat.sessions()) {
      await forget(s.sessionId).then(
        () => log('info', `session/delete ${s.sessionId}`),
        (e: unknown) => log('warn', `session/delete of ${s.sessionId} failed: ${errorText(e)}`),
      );
    }
  }
}
