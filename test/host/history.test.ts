/**
 * History in the real extension host, against the demo agent: a prompt reaches the chat's search file, a
 * search across every chat finds it grouped under its chat, and opening the match opens that chat and
 * reveals that very entry; the demo agent's own sessions (session/list) that a chat shows are never offered
 * again as sessions to import, and opening one gives the chat that has it, not a second one. Every configured
 * agent's own sessions (three demo agents: one with sessions of its "own CLI", one without session/list, one
 * that cannot start) are listed on request with a state each, and one opened is a chat that is not offered again.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { listAgentSessionRows, openAgentSession } from '../../src/vscode/history/agentSessionsList';
import type { AgentSessionsRow } from '../../src/common/history/agentSessions';
import { HistoryQuery } from '../../src/node/history/historyQuery';
import type { HistoryGroup } from '../../src/common/history/historyContract';
import { unknownSessions } from '../../src/common/history/agentSessions';
import { openAt } from '../../src/vscode/history/historyView';
import type { ChatService } from '../../src/vscode/chats/chatService';
import type { ChatPanel } from '../../src/vscode/panel/chatPanel';

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
    // A snapshot may go to the tab first (a page that loaded meanwhile asks for one): the reveal is what counts.
    assert.deepEqual(
      posts.filter((m) => (m as { type?: unknown }).type === 'reveal'),
      [{ type: 'reveal', key: userKey }],
    );
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

  test('every agent’s own sessions are listed when asked, each with its state; one opened is a chat, never offered again', async () => {
    const a = await api();
    const s = a.service;
    await s.ready();
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(cwd, 'the host tests run in a folder');
    const word = `narwhal${Date.now().toString(36)}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sessions-'));
    const file = path.join(dir, 'sessions.json');
    const saved = [
      { sessionId: `cli-${word}-1`, cwd, title: `From the CLI ${word}`, updatedAt: '2026-11-01T10:00:00Z', prompt: `Where is the ${word}?`, answer: 'In the sea.' },
      { sessionId: `cli-${word}-2`, cwd, title: 'Another CLI session', prompt: 'Hello', answer: 'Hi' },
      { sessionId: `cli-${word}-3`, cwd: path.join(dir, 'elsewhere'), title: 'Another folder', prompt: 'x', answer: 'y' },
    ];
    fs.writeFileSync(file, JSON.stringify(saved));
    const demo = path.join(vscode.extensions.getExtension('acp-chat.acp-chat')!.extensionPath, 'dist', 'demo-agent.js');
    const agent = (id: string, name: string, env: Record<string, string>) => ({ id, name, command: process.execPath, args: [demo], env: { ELECTRON_RUN_AS_NODE: '1', ...env } });
    const config = vscode.workspace.getConfiguration('acpChat');
    const before = config.inspect('agents')?.globalValue;
    await config.update(
      'agents',
      [
        agent('demo-saved', 'Demo with saved sessions', { ACP_DEMO_SESSIONS_FILE: file }),
        agent('demo-nolist', 'Demo without session/list', { ACP_DEMO_SESSION_LIST: 'off' }),
        { id: 'broken', name: 'Broken agent', command: path.join(dir, 'no-such-agent'), args: [], env: {} },
      ],
      vscode.ConfigurationTarget.Global,
    );
    try {
      await until(() => s.agents().some((x) => x.id === 'demo-saved'), 'the agents in the settings', 10_000);
      const seen: string[][] = [];
      let rows: readonly AgentSessionsRow[] = [];
      const list = async () => {
        assert.ok(
          await listAgentSessionRows(s, (r) => {
            rows = r;
            seen.push(r.map((x) => x.state));
          }),
        );
        return new Map(rows.map((r) => [r.agentId, r]));
      };
      let byAgent = await list();
      assert.ok(
        seen[0]?.every((x) => x === 'listing'),
        'every agent is "listing" first',
      );
      const mine = byAgent.get('demo-saved');
      assert.strictEqual(mine?.state, 'listed');
      assert.deepEqual(
        mine.sessions.map((x) => x.sessionId),
        [saved[0]!.sessionId, saved[1]!.sessionId],
        'the sessions of this folder, none of another',
      );
      assert.strictEqual(byAgent.get('demo-nolist')?.state, 'unsupported');
      assert.strictEqual(byAgent.get('demo-nolist')?.note, 'does not list its sessions (no session/list)');
      assert.strictEqual(byAgent.get('broken')?.state, 'failed');
      assert.match(byAgent.get('broken')?.note ?? '', /^listing failed: .*no-such-agent/);
      assert.ok(
        rows.every((r) => r.state !== 'listing'),
        'every agent answered',
      );

      // Opened: a chat of that agent whose transcript is the session's history (loaded), shown once.
      const chats = s.chatIndex.history().length;
      await openAgentSession(s, 'demo-saved', saved[0]!.sessionId);
      const chatId = s.focusedChatId;
      assert.ok(chatId);
      assert.strictEqual(s.chatIndex.history().length, chats + 1);
      const prompts = await until(
        () => {
          const u = a.transcript().filter((e) => e.kind === 'user_message' && JSON.stringify(e).includes(word));
          return u.length > 0 && a.transcript().some((e) => e.kind === 'agent_message' && JSON.stringify(e).includes('In the sea.')) ? u : undefined;
        },
        'the saved session replayed into the chat',
        20_000,
      );
      assert.strictEqual(prompts.length, 1, 'its prompt once');

      // Listed again: the opened session is a chat now, not offered; opening it again gives that chat.
      byAgent = await list();
      assert.deepEqual(
        byAgent.get('demo-saved')?.sessions.map((x) => x.sessionId),
        [saved[1]!.sessionId],
      );
      await openAgentSession(s, 'demo-saved', saved[0]!.sessionId);
      assert.strictEqual(s.chatIndex.history().length, chats + 1, 'no second chat for it');
      assert.strictEqual(s.focusedChatId, chatId);
      await s.deleteChat(chatId, false);
    } finally {
      await config.update('agents', before, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
