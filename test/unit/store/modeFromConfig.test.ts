// A mode chosen through its config option (Claude Code: set_config_option "mode" answers the whole list
// with currentValue "default") is the session's mode, as the tree shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { connected, ok, req, update } from './helpers';

const modes = {
  currentModeId: 'auto',
  availableModes: [
    { id: 'auto', name: 'Auto' },
    { id: 'default', name: 'Default' },
    { id: 'plan', name: 'Plan' },
  ],
};
const modeOption = (currentValue: string, extra: Record<string, unknown> = { category: 'mode' }) => ({
  id: 'mode',
  name: 'Mode',
  type: 'select',
  currentValue,
  ...extra,
  options: modes.availableModes.map((m) => ({ value: m.id, name: m.name })),
});
const model = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'default', options: [{ value: 'default', name: 'Default model' }] };

function session() {
  const store = connected();
  store.ingest('client->agent', req(2, AgentMethods.sessionResume, { sessionId: 's', cwd: '/ws', mcpServers: [] }));
  store.ingest('agent->client', ok(2, { modes, configOptions: [modeOption('auto'), model] }));
  return store;
}

test('the set_config_option result moves the session mode', () => {
  const store = session();
  assert.equal(store.session('s')?.currentModeId, 'auto');
  store.ingest('client->agent', req(3, AgentMethods.sessionSetConfigOption, { sessionId: 's', configId: 'mode', value: 'default' }));
  const changes = store.ingest('agent->client', ok(3, { configOptions: [modeOption('default'), model] }));
  assert.equal(store.session('s')?.currentModeId, 'default');
  assert.ok(
    changes.some((c) => c.type === 'sessionChanged' && c.fields.includes('currentModeId')),
    'the tree and panel hear about it',
  );
});

test('a config_option_update moves it too, also for an option without a category that offers exactly the modes', () => {
  const store = session();
  store.ingest('agent->client', update('s', { sessionUpdate: 'config_option_update', configOptions: [modeOption('plan', {}), model] }));
  assert.equal(store.session('s')?.currentModeId, 'plan');
});

test('other options (a model called "default") never change the mode', () => {
  const store = session();
  store.ingest('client->agent', req(3, AgentMethods.sessionSetConfigOption, { sessionId: 's', configId: 'model', value: 'default' }));
  store.ingest('agent->client', ok(3, { configOptions: [model] }));
  assert.equal(store.session('s')?.currentModeId, 'auto');
});
