/** The demo agent's one way to send an update, shared by its v1 and v2 sessions. */
import { ClientMethods } from '../../common/protocol/methods';
import type { AcpConnection } from '../transport/connection';

/**
 * Sends one session/update. A timer may fire after the client hung up: vscode-jsonrpc then throws
 * synchronously ("Connection is disposed") instead of rejecting; an update nobody can read is dropped.
 */
export function sendUpdate(acp: AcpConnection, sessionId: string, update: unknown): void {
  try {
    void acp.connection.sendNotification(ClientMethods.sessionUpdate, { sessionId, update }).catch(() => undefined);
  } catch {
    // the connection is closed
  }
}
