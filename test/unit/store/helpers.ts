// Builders for wire traffic in store tests.
import { MessageStore, type StoreOptions } from '../../../src/common/store';
import { AgentMethods, ClientMethods } from '../../../src/common/protocol/methods';

export const req = (id: number | string, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });
export const ok = (id: number | string, result: unknown) => ({ jsonrpc: '2.0', id, result });
export const err = (id: number | string, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
export const update = (sessionId: string, u: Record<string, unknown>) => ({ jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId, update: u } });
export const chunk = (sessionId: string, kind: string, text: string, messageId?: string | null) =>
  update(sessionId, { sessionUpdate: kind, content: { type: 'text', text }, ...(messageId !== undefined ? { messageId } : {}) });

/** A store with counting keys and a fixed clock, connected (initialize) at `version` with session `s`. */
export function connected(version = 1, options: StoreOptions = {}): MessageStore {
  let n = 0;
  let t = 1000;
  const store = new MessageStore({ newKey: () => `key-${n++}`, now: () => t++, ...options });
  store.ingest('client->agent', req(0, AgentMethods.initialize, { protocolVersion: version }));
  store.ingest('agent->client', ok(0, { protocolVersion: version }));
  store.ingest('client->agent', req(1, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', ok(1, { sessionId: 's' }));
  return store;
}
