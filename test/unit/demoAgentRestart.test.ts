// A demo agent restarted under a chat (Restart Agent, a window reload) adopts the chat's session id on
// session/resume and numbers its turns from 1 again. Its ids must not name messages the chat already holds:
// they did (`msg-1-b`, v2 `user-1`), and the new turn's text was appended to the old entries.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import { MessageStore } from '../../src/common/store';
import type { Direction } from '../../src/node/acp/client';
import { demoPair } from './helpers/demoPair';
import { until } from '../helpers/until.mjs';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-restart-'));
after(() => rmSync(ws, { recursive: true, force: true }));

/** A fresh demo agent process (in-process stand-in) whose traffic feeds the chat's one store. */
const startAgent = (store: MessageStore, version: 1 | 2) => demoPair({ client: { protocolVersion: version, tap: (dir: Direction, msg: Message) => store.ingest(dir, msg) } });

const userTexts = (store: MessageStore, sessionId: string) =>
  (store.session(sessionId)?.entries ?? []).flatMap((e) => (e.kind === 'user_message' ? [e.content.map((b) => ('text' in b ? b.text : '')).join('')] : []));

describe('demo agent restarted under a chat', () => {
  for (const version of [1, 2] as const) {
    it(`v${version}: a resumed session's new turn gets new entries, not text appended to the old ones`, async () => {
      const store = new MessageStore();
      const first = startAgent(store, version);
      await first.client.initialize();
      const { sessionId } = await first.client.newSession({ cwd: ws, mcpServers: [] });
      await first.client.prompt(sessionId, [{ type: 'text', text: 'before the restart' }]);
      await until(() => store.session(sessionId)?.entries.some((e) => e.kind === 'agent_message' && e.messageId?.endsWith('-b')) === true, 'the first turn to end');
      const before = store.session(sessionId)?.entries.length ?? 0;
      first.dispose();

      const second = startAgent(store, version);
      await second.client.initialize();
      await second.client.resumeSession({ sessionId, cwd: ws });
      await second.client.prompt(sessionId, [{ type: 'text', text: 'after the restart' }]);
      await until(() => (store.session(sessionId)?.entries.filter((e) => e.kind === 'agent_message' && e.messageId?.endsWith('-b')).length ?? 0) === 2, 'the second turn to end');
      second.dispose();

      assert.deepEqual(userTexts(store, sessionId), ['before the restart', 'after the restart']);
      const entries = store.session(sessionId)?.entries ?? [];
      assert.equal(entries.length, before * 2, 'the second turn added as many entries as the first');
      // v1 user messages the client sent have no agent id (null); every id the agent gave must be new.
      const ids = entries.flatMap((e) =>
        e.kind === 'tool_call' ? [e.toolCallId] : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' || e.messageId === null ? [] : [e.messageId],
      );
      assert.equal(new Set(ids).size, ids.length, `ids repeat: ${ids.join(', ')}`);
    });
  }
});
