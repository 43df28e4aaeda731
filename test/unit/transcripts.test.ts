// Every recorded agent transcript reduces with no error diagnostics, no text lost or duplicated (the
// messages are exactly those computed independently from the capture's chunks), one entry per tool call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, textOf } from '../../src/common/store';

// Copies of ../shared/agents/transcripts (data), so the check runs from any checkout.
const dir = path.resolve(__dirname, '../fixtures/transcripts');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

interface Rec {
  dir?: string;
  msg?: {
    method?: string;
    params?: {
      sessionId?: string;
      update?: { sessionUpdate?: string; sessionId?: string; content?: { type?: string; text?: string }; messageId?: string | null; toolCallId?: string };
    };
  };
}

test('there are transcripts to check', () => assert.ok(files.length > 0));

for (const file of files) {
  test(`transcript ${file}`, () => {
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    const store = new MessageStore();
    lines.forEach((l, i) => {
      if (l.trim() !== '') store.ingestLine(l, i + 1);
    });
    assert.deepEqual(
      store.diagnostics().filter((d) => d.severity === 'error'),
      [],
    );
    const sessions = store.sessions();
    assert.ok(sessions.length > 0, 'no session');

    // The expected messages, computed from the capture alone (not from the store's bookkeeping): in wire
    // order, consecutive text chunks of one kind form one message; another kind, another message id, or
    // a tool call in between starts the next one (ACP v1's merge rule for chunks without ids).
    const recs = lines.map((l) => (l.trim() === '' ? {} : (JSON.parse(l) as Rec)));
    // Per session (a subagent's chunks are its own session's), in the order sessions first appear.
    const bySession = new Map<string, { kind: string; id: string | null; text: string }[]>();
    const openIn = new Map<string, { kind: string; id: string | null; text: string } | undefined>();
    for (const r of recs) {
      const u = r.msg?.params?.update;
      const sid = r.msg?.params?.sessionId ?? '';
      if (r.dir !== 'agent->client' || r.msg?.method !== 'session/update' || !u?.sessionUpdate) continue;
      if (u.sessionUpdate === 'subagent_update' && u.sessionId && !bySession.has(u.sessionId)) bySession.set(u.sessionId, []);
      if (!bySession.has(sid)) bySession.set(sid, []);
      const expected = bySession.get(sid)!;
      let open = openIn.get(sid);
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') openIn.set(sid, (open = undefined));
      if (!u.sessionUpdate.endsWith('_chunk') || u.sessionUpdate === 'session_message_chunk' || u.sessionUpdate === 'compaction_summary_chunk' || u.content?.type !== 'text')
        continue;
      const kind = u.sessionUpdate.replace(/_chunk$/, '');
      const id = u.messageId ?? null;
      const text = u.content.text ?? '';
      if (open && open.kind === kind && (id === null || open.id === null || open.id === id)) {
        open.text += text;
        open.id ??= id;
      } else if (text !== '') {
        open = { kind, id, text };
        openIn.set(sid, open);
        expected.push(open);
      }
    }
    const expected = [...bySession.values()].flat();
    const toolCallIds = new Set<string>();
    const actual: { kind: string; text: string }[] = [];
    for (const s of sessions) {
      const seenTools = new Set<string>();
      for (const e of s.entries) {
        if (e.kind === 'tool_call') {
          assert.ok(!seenTools.has(e.toolCallId), `tool call ${e.toolCallId} appears twice`);
          seenTools.add(e.toolCallId);
          toolCallIds.add(e.toolCallId);
          continue;
        }
        if (e.provenance === 'local' || e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'session_message' || e.kind === 'compaction') continue;
        assert.ok(textOf(e.content).length > 0 || e.content.length > 0, 'empty message entry');
        actual.push({ kind: e.kind, text: textOf(e.content) });
      }
    }
    assert.deepEqual(
      actual,
      expected.map(({ kind, text }) => ({ kind, text })),
    );
    // Every chunk's text is in exactly one entry: the totals agree.
    let chunkText = 0;
    for (const r of recs) {
      const u = r.msg?.params?.update;
      if (
        r.dir === 'agent->client' &&
        u?.sessionUpdate?.endsWith('_chunk') &&
        u.sessionUpdate !== 'session_message_chunk' &&
        u.sessionUpdate !== 'compaction_summary_chunk' &&
        u.content?.type === 'text'
      )
        chunkText += (u.content.text ?? '').length;
      if (r.dir === 'agent->client' && (u?.sessionUpdate === 'tool_call' || u?.sessionUpdate === 'tool_call_update') && u.toolCallId) assert.ok(toolCallIds.has(u.toolCallId));
    }
    const stored = sessions
      .flatMap((s) => s.entries)
      .reduce(
        (n, e) =>
          n +
          (e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'session_message' && e.kind !== 'compaction' && e.provenance !== 'local'
            ? textOf(e.content).length
            : 0),
        0,
      );
    assert.equal(stored, chunkText);
  });
}
