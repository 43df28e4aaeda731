/**
 * Issue 39 class 2: one session check for every agent request, present and future (ConnectionSessions.check,
 * the only way agentRequests.ts and elicitations.ts register a handler).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionSessions } from '../../../src/node/acp/connectionSessions';

test('any request naming a session must name one of the connection, whatever its method', () => {
  const s = new ConnectionSessions(() => undefined);
  s.ours('mine');
  assert.deepEqual(s.check('some/future_method', { sessionId: 'mine', x: 1 }), { sessionId: 'mine', x: 1 });
  assert.deepEqual(s.check('elicitation/create', { mode: 'form' }), { mode: 'form' }); // request-scoped: no session named
  for (const sessionId of ['stranger', 42, null, '']) {
    assert.throws(
      () => s.check('some/future_method', { sessionId }),
      (e: Error & { data?: unknown }) => /unknown session/.test(e.message) && (e.data as { reason?: string }).reason === 'unknown_session',
    );
  }
  assert.equal(s.admitUpdate({ sessionId: 'mine', update: { sessionUpdate: 'subagent_update', sessionId: 'kid' } } as never), true);
  assert.doesNotThrow(() => s.check('fs/read_text_file', { sessionId: 'kid' }));
});
