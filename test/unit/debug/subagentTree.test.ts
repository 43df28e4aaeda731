// The Message Tree with subagents: child sessions are nested under the session that announced them (any
// depth), each labelled with the subagent's title and state; only the others are at the top.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { rootSessions, sessionChildren, subagentNodes, type TreeNode } from '../../../src/common/debug/treeModel';

function reduce(name: string): MessageStore {
  const store = new MessageStore();
  readFileSync(path.resolve(__dirname, '../../fixtures/transcripts', name), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() !== '') store.ingestLine(l, i + 1);
    });
  return store;
}

const announce = (store: MessageStore, parent: string, child: string, title: string, state: string, seq: number) =>
  store.ingest(
    'agent->client',
    { jsonrpc: '2.0', method: 'session/update', params: { sessionId: parent, update: { sessionUpdate: 'subagent_update', sessionId: child, title, state: { state } } } },
    seq,
  );

const sessionNodes = (nodes: readonly TreeNode[]) => nodes.filter((n) => n.type === 'session');

test('claude-next-subagent: the child is nested under its parent, labelled with its title and state, not at the top', () => {
  const store = reduce('claude-next-subagent.jsonl');
  const all = store.sessions();
  assert.equal(all.length, 2);
  const roots = rootSessions(all);
  assert.deepEqual(
    roots.map((s) => s.parentSessionId),
    [null],
  );
  const parent = roots[0]!;
  const [child, ...more] = subagentNodes(all, parent, () => 0);
  assert.equal(more.length, 0);
  assert.equal(child?.type, 'session');
  assert.equal(child?.label, 'Subagent: Read notes.txt');
  assert.match(child?.description ?? '', /^idle \(end_turn\) · \d+ entries · v1$/);
  assert.equal(child?.type === 'session' ? child.parentSessionId : undefined, parent.sessionId);
  // Under the parent: after its entries, before the groups.
  const kids = sessionChildren(
    parent,
    [],
    undefined,
    null,
    subagentNodes(all, parent, () => 0),
  );
  const at = kids.findIndex((n) => n.type === 'session');
  assert.equal(kids[at - 1]?.type, 'entry');
  assert.equal(kids[at + 1]?.type, 'group');
});

test('any depth: a grandchild is under the child, and its running state is shown', () => {
  const store = reduce('claude-next-subagent.jsonl');
  const [parent, child] = store.sessions();
  announce(store, child!.sessionId, 'grand', 'Look deeper', 'running', 10_000);
  const all = store.sessions();
  assert.equal(rootSessions(all).length, 1);
  const childState = all.find((s) => s.sessionId === child!.sessionId)!;
  const [grand] = sessionNodes(subagentNodes(all, childState, () => 2));
  assert.equal(grand?.label, 'Subagent: Look deeper');
  assert.match(grand?.description ?? '', /^running · 0 entries · v1 · 2 diagnostics$/);
  assert.deepEqual(
    sessionNodes(
      subagentNodes(
        all,
        all.find((s) => s.sessionId === parent!.sessionId)!,
        () => 0,
      ),
    ).map((n) => n.label),
    ['Subagent: Read notes.txt'],
  );
});

test('a title that is missing or carries control characters: the description (or id) stands in, made inert', () => {
  const store = reduce('claude-next-subagent.jsonl');
  const [parent] = store.sessions();
  announce(store, parent!.sessionId, 'x1', '', 'running', 10_000);
  announce(store, parent!.sessionId, 'x2', 'Evil\u001b[31m title', 'unknown', 10_001);
  const labels = subagentNodes(store.sessions(), store.sessions()[0]!, () => 0).map((n) => n.label);
  assert.equal(labels.length, 3);
  assert.equal(labels[1], 'Subagent: x1');
  assert.doesNotMatch(labels[2] ?? '', /\u001b/);
});

test('sessionTree, rootOf and busySubagents follow the announcements, any depth', async () => {
  const { sessionTree, rootOf, busySubagents, announcementOf } = await import('../../../src/common/store/sessionTree');
  const store = reduce('claude-next-subagent.jsonl');
  const [parent, child] = store.sessions();
  const root = parent!.sessionId;
  announce(store, child!.sessionId, 'grand', 'Look deeper', 'running', 10_000);
  assert.deepEqual(sessionTree(store, root), [root, child!.sessionId, 'grand']);
  assert.equal(rootOf(store, 'grand'), root);
  assert.equal(rootOf(store, root), root);
  assert.equal(rootOf(store, 'nobody'), 'nobody');
  assert.deepEqual(
    busySubagents(store, root).map((e) => e.childSessionId),
    ['grand'],
    'the child is idle, the grandchild runs',
  );
  assert.equal(announcementOf(store, 'grand')?.title, 'Look deeper');
  assert.equal(announcementOf(store, root), undefined);
});
