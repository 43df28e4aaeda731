/**
 * History in the real extension host, against the demo agent: a prompt reaches the chat's search file, a
 * search across every chat finds it grouped under its chat, and opening the match opens that chat and
 * reveals that very entry; the demo agent's own sessions (session/list) that a chat shows are never offered
 * again as sessions to import, and opening one gives the chat that has it, not a second one.
 */
import * as assert from 'assert';
import { api } from './util';
import { HistoryQuery } from '../../src/node/history/historyQuery';
import type { HistoryGroup } from '../../src/common/history/historyContract';
import { unknownSessions } from '../../src/common/history/agentSessions';
import { openAt } from '../../src/vscode/historyView';
import type { ChatService } from '../../src/vscode/chatService';
import type { ChatPanel } from '../../src/vscode/chatPanel';

function search(s: ChatService, text: string): Promise<Map<string, HistoryGroup>> {
  const groups = new Map<string, HistoryGroup>();
  const q = new HistoryQuery(
    {
      records: () => s.chatIndex.history(),
      live: () => undefined,
      title: (id) => s.titleOf(id),
      agentName: (id) => id,
      dir: () => s.chatsDir(),
      rg: () => undefined,
      now: () => Date.now(),
    },
    (m) => {
      if (m.type === 'results') for (const g of m.groups) groups.set(g.row.chatId, g);
    },
  );
  return q.run(1, text, {}).then(() => groups);
}

suite('History', () => {
  test('a search across every chat finds a prompt under its chat; opening the match reveals that entry', async () => {
    const a = await api();
    const s = a.service;
    await s.ready();
    await s.newChat('demo');
    const word = `zanzibar${Date.now().toString(36)}`;
    await a.sendPrompt(`please find the ${word} walrus`);
    const chatId = s.focusedChatId;
    assert.ok(chatId);
    const userKey = a.transcript().find((e) => e.kind === 'user_message' && JSON.stringify(e).includes(word))?.key;
    assert.ok(userKey);
    // The search file is written a moment after the chat changes.
    let group: HistoryGroup | undefined;
    for (const end = Date.now() + 15_000; !group?.hits.length; await new Promise((r) => setTimeout(r, 200))) {
      assert.ok(Date.now() < end, 'the prompt in the search results within 15 s');
      group = (await search(s, word.toUpperCase())).get(chatId);
    }
    // The prompt, and what the demo agent says back about it (its thought and answer quote the prompt).
    const hit = group.hits.find((h) => h.kind === 'user');
    assert.strictEqual(hit?.key, userKey);
    assert.ok(hit.snippet.includes(word));
    const keys = new Set(a.transcript().map((e) => e.key));
    assert.ok(
      group.hits.every((h) => keys.has(h.key)),
      'every hit names an entry of the chat',
    );

    // Opening the match: the chat's tab, then a reveal of that entry.
    const posts: unknown[] = [];
    const svc = s as unknown as { openChat: ChatService['openChat'] };
    const open = svc.openChat;
    svc.openChat = async (o) => {
      const p: ChatPanel = await open(o);
      const post = p.post.bind(p);
      p.post = (m) => (posts.push(m), post(m));
      return p;
    };
    try {
      await openAt(s, chatId, userKey);
    } finally {
      svc.openChat = open;
    }
    assert.deepEqual(posts, [{ type: 'reveal', key: userKey }]);
    assert.strictEqual(s.focusedChatId, chatId);
  });

  test('the agent’s own sessions that chats show are never offered again; opening one gives its chat', async () => {
    const a = await api();
    const s = a.service;
    const chat = await s.activeChat();
    await a.whenPanelReady();
    const listed = await chat.door.listSessions();
    assert.ok(
      listed.some((x) => x.sessionId === chat.sessionId),
      'the demo agent lists its sessions',
    );
    const records = [...s.chatIndex.history(), ...s.chatIndex.archived()];
    assert.deepEqual(
      unknownSessions(
        listed,
        records,
        chat.sessions().map((x) => x.sessionId),
      ),
      [],
      'nothing this client shows is offered to import',
    );
    const before = s.chatIndex.history().length;
    await s.openChat({ agentId: chat.agent.id, sessionId: chat.sessionId! });
    assert.strictEqual(s.chatIndex.history().length, before, 'no second chat for a known session');
    assert.strictEqual(s.focusedChatId, s.chatIdOf(chat));
  });
});
