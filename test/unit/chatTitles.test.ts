// A chat's title has one owner, its store: every name of the chat (tab, side bar, tree, chat list) is
// derived from it, the chat index's copy is only a cache for chats not loaded, and a title change takes
// one path to the views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatIndex } from '../../src/common/chats/chatIndex';
import { ChatTitles, type TitledChat } from '../../src/common/chats/chatTitles';
import { Emitter } from '../../src/common/util/lifecycle';
import type { PanelDelta } from '../../src/common/webview/panelDeltas';

/** A live chat whose store's session title the test sets, announcing it as the session does. */
function liveChat(title: string | null, attached = true) {
  const changes = new Emitter<readonly PanelDelta[]>();
  const state = { title, attached };
  const chat: TitledChat = { current: () => (state.attached ? { title: state.title } : undefined), onDidChange: changes.event };
  const setTitle = (t: string | null) => {
    state.title = t;
    changes.fire([{ type: 'panel', fields: { title: t } }]);
  };
  return { chat, setTitle, state, changes };
}

function setup() {
  const index = new ChatIndex();
  const live = new Map<string, TitledChat>();
  const titles = new ChatTitles({ index: () => index, live: (id) => live.get(id), agentName: (id) => `Agent ${id}` });
  const told: string[] = [];
  titles.onDidChange((id) => told.push(id));
  return { index, live, titles, told };
}

test('a live chat is named by its store, whatever the index cache says; a chat not loaded by the cache', () => {
  const { index, live, titles } = setup();
  const a = index.create('demo', 1);
  index.cacheTitle(a.id, 'stale copy');
  assert.equal(titles.titleOf(a.id), 'stale copy', 'not loaded: the cache names it');
  const l = liveChat('Fix the build');
  live.set(a.id, l.chat);
  assert.equal(titles.titleOf(a.id), 'Fix the build', 'loaded: the store names it');
  l.setTitle(null);
  assert.equal(titles.titleOf(a.id), 'Chat 1 · Agent demo', 'a store with no title: the numbered name, not the cache');
  assert.equal(titles.titleOf('gone'), 'ACP Chat');
});

test('a title change in the store reaches the cache and the views through one event', () => {
  const { index, live, titles, told } = setup();
  const a = index.create('demo', 1);
  const l = liveChat(null);
  live.set(a.id, l.chat);
  const watch = titles.watch(a.id, l.chat);
  told.length = 0;
  l.setTitle('Renamed');
  assert.deepEqual(told, [a.id]);
  assert.equal(index.get(a.id)?.title, 'Renamed', 'the cache follows the store');
  assert.equal(titles.titleOf(a.id), 'Renamed');
  // Changes that do not touch the title tell nobody.
  l.changes.fire([{ type: 'panel', fields: { turn: 'busy' } }]);
  assert.deepEqual(told, [a.id]);
  watch.dispose();
  l.setTitle('After');
  assert.equal(index.get(a.id)?.title, 'Renamed', 'not watched any more');
});

test('before its session is known the store says nothing: the cached title stands', () => {
  const { index, live, titles } = setup();
  const a = index.create('demo', 1);
  index.cacheTitle(a.id, 'From last time');
  const l = liveChat(null, false);
  live.set(a.id, l.chat);
  titles.watch(a.id, l.chat);
  l.changes.fire([{ type: 'reset' }]);
  assert.equal(index.get(a.id)?.title, 'From last time');
  assert.equal(titles.titleOf(a.id), 'From last time');
});
