// `clientCapabilities.session` (v1 stable): advertised only for the features the caller says it shows, so an
// agent never sends compaction updates, notices or boolean options a client would drop.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { clientCapabilities, initializeParams } from '../../../src/node/acp/negotiation';
import { ALL_SESSION_FEATURES } from '../../../src/node/acp/agentLink';

const handlers = { requestPermission: async () => ({ outcome: { outcome: 'cancelled' as const } }) };

it('session: {} per feature shown, nothing when none is', () => {
  assert.deepEqual(clientCapabilities({ handlers, session: ALL_SESSION_FEATURES }).session, { compaction: {}, notices: {}, configOptions: { boolean: {} } });
  assert.deepEqual(clientCapabilities({ handlers, session: { compaction: true, notices: true } }).session, { compaction: {}, notices: {} });
  assert.deepEqual(clientCapabilities({ handlers, session: { booleanConfigOptions: true } }).session, { configOptions: { boolean: {} } });
  assert.equal('session' in clientCapabilities({ handlers }), false);
  assert.equal('session' in clientCapabilities({ handlers, session: {} }), false);
});

it('asking for v2, the v1 fields carry it (v2 needs no capability for compaction or notices)', () => {
  const p = initializeParams(2, { handlers, session: ALL_SESSION_FEATURES, clientInfo: { name: 't', version: '0' } }) as {
    clientCapabilities: { session?: unknown };
    capabilities: Record<string, unknown>;
  };
  assert.deepEqual(p.clientCapabilities.session, { compaction: {}, notices: {}, configOptions: { boolean: {} } });
  assert.equal('session' in p.capabilities, false);
});
