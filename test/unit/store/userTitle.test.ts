/**
 * Issue 38, item 6: the title the user gave a chat wins over the agent's until they clear it (an agent
 * restarted and naming the session again must not overwrite it, also after a reload), and titles are one
 * line everywhere (the store's shown title is what tabs, the header, the tree and the export read).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageStore } from '../../../src/common/store';
import { sessionToMarkdown } from '../../../src/common/export/markdown';

const rpc = (m: Record<string, unknown>) => ({ jsonrpc: '2.0', ...m });
const agentTitle = (title: string) => rpc({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'session_info_update', title } } });

function started(): MessageStore {
  const store = new MessageStore();
  store.ingest('client->agent', rpc({ id: 1, method: 'session/new', params: { cwd: '/ws', mcpServers: [] } }));
  store.ingest('agent->client', rpc({ id: 1, result: { sessionId: 's1' } }));
  return store;
}

test("the user's title wins over the agent's until cleared, and survives a save and restore", () => {
  const store = started();
  store.ingest('agent->client', agentTitle('Agent named it'));
  assert.equal(store.session('s1')?.title, 'Agent named it');
  store.record({ event: 'user_title', sessionId: 's1', title: 'My title' });
  assert.equal(store.session('s1')?.title, 'My title');
  const restored = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())) as unknown).store;
  // The agent forgot it (a restart) and names the session again on the next prompt.
  restored.ingest('agent->client', agentTitle('Agent names it again'));
  assert.equal(restored.session('s1')?.title, 'My title', "the user's title stays");
  restored.record({ event: 'user_title', sessionId: 's1', title: null });
  assert.equal(restored.session('s1')?.title, 'Agent names it again', "cleared: the agent's shows again");
});

test('titles are single-line: an agent title with line breaks reaches no view (nor the export heading) with them', () => {
  const store = started();
  store.ingest('agent->client', agentTitle('First line\nsecond line\r\n'));
  assert.equal(store.session('s1')?.title, 'First line second line');
  const md = sessionToMarkdown(store.session('s1')!, 'Demo');
  assert.equal(md.split('\n')[0], '# First line second line');
});
