// The host side of a subagent's transcript expanded in its card (subagentFeeds.ts): a feed per expanded child,
// its snapshot then patches of that child only (decoded by the webview's own WireDecoder back into exactly the
// child's entries), nothing for a collapsed child or for a session that is not a subagent of the one shown,
// and the feeds stopped when collapsed. Driven by the recorded Claude subagent turn, line by line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, type StoreDelta } from '../../../src/common/store';
import type { Entry } from '../../../src/common/store/model';
import { isUnder } from '../../../src/common/store/sessionTree';
import type { FeedMessage, HostToWebview, PatchOp } from '../../../src/common/webview/contract';
import { SubagentFeeds } from '../../../src/common/webview/subagentFeeds';
import { SubagentModel } from '../../../src/common/webview/subagentModel';
import { toViewEntry, type ViewEntry } from '../../../src/common/webview/viewEntry';
import { WireDecoder } from '../../../src/common/webview/wireDecoder';
import { Emitter } from '../../../src/common/util/lifecycle';
import { appendTextToEntry, applyFieldsToEntry } from '../../../webview/entryModel';

const lines = readFileSync(path.join(__dirname, '../../fixtures/transcripts/claude-next-subagent.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
const ROOT = 'b830f726-44af-401b-a4b4-799f7f25aafa';
const CHILD = 'a9fd9da01c3852c64';

/** A chat's store fed line by line, and what a chat model offers the feeds: a subagent under ROOT as a model. */
function chat() {
  const store = new MessageStore({ now: () => 0 });
  const changed = new Emitter<readonly StoreDelta[]>();
  const opened: SubagentModel[] = [];
  const source = {
    subagentView: (id: string) => {
      if (!isUnder(store, id, ROOT)) return undefined;
      const m = new SubagentModel({
        sessionId: id,
        agentName: 'Claude',
        session: (s) => store.session(s),
        notices: (s) => store.notices(s),
        onStoreChanged: changed.event,
        act: () => undefined,
      });
      opened.push(m);
      return m;
    },
  };
  let next = 0;
  const play = (until: (store: MessageStore) => boolean) => {
    while (next < lines.length && !until(store)) changed.fire(store.ingestLine(lines[next]!, ++next));
  };
  const step = () => next < lines.length && (changed.fire(store.ingestLine(lines[next]!, ++next)), true);
  return { store, source, play, step, opened, rest: () => play(() => false) };
}

/** The webview's side of one child's feed: decoded and applied as the transcript applies it. */
function childView() {
  const decoder = new WireDecoder();
  const view: ViewEntry[] = [];
  const apply = (m: FeedMessage) => {
    if (m.type === 'snapshot') view.splice(0, view.length, ...decoder.snapshot(m.entries, m.olderCount ?? 0));
    else if (m.type === 'older') view.unshift(...decoder.older(m.entries, m.olderCount));
    else for (const op of m.ops) applyOp(op);
  };
  const applyOp = (wireOp: PatchOp) => {
    if (wireOp.op !== 'insert' && wireOp.op !== 'replace' && wireOp.op !== 'appendText' && wireOp.op !== 'fields') return;
    const op = decoder.entryOp(wireOp);
    if (op.op === 'insert') return void view.splice(op.index, 0, op.entry);
    const i = view.findIndex((e) => e.key === (op.op === 'replace' ? op.entry.key : op.key));
    assert.ok(i >= 0, `${op.op} of an entry the child's view does not have`);
    const cur = view[i]!;
    view[i] = op.op === 'replace' ? op.entry : op.op === 'fields' ? applyFieldsToEntry(cur, op.patch) : appendTextToEntry(cur, op.text);
  };
  return { view, apply };
}

const shown = (e: Entry | ViewEntry): unknown => JSON.parse(JSON.stringify('stats' in e ? toViewEntry(e) : e));

test("an expanded child gets its own snapshot and then patches of its entries only, which rebuild exactly the child's entries; nothing else is posted", () => {
  const { store, source, play, step } = chat();
  const posts: HostToWebview[] = [];
  const feeds = new SubagentFeeds(
    (m) => posts.push(m),
    () => undefined,
    () => 0,
  );
  play((s) => s.session(CHILD) !== undefined);
  feeds.expand([CHILD, ROOT, 'stranger'], source);
  assert.deepEqual(feeds.expanded, [CHILD], 'only a subagent under the session shown is fed');
  assert.deepEqual(
    posts.map((p) => [p.type, p.type === 'subagent' ? p.childSessionId : '', p.type === 'subagent' ? p.message.type : '']),
    [['subagent', CHILD, 'snapshot']],
  );
  const child = childView();
  const rootEntriesBefore = store.session(ROOT)!.entries.length;
  // The rest of the turn, a frame after each line.
  while (step()) feeds.flush();
  for (const p of posts) {
    assert.equal(p.type, 'subagent');
    if (p.type === 'subagent') child.apply(p.message);
  }
  assert.ok(posts.length > 2, 'the child streamed in patches');
  assert.ok(store.session(ROOT)!.entries.length > rootEntriesBefore, "the parent's own entries went on (and are not in the child's feed)");
  assert.deepEqual(child.view.map(shown), store.session(CHILD)!.entries.map(shown));
  // Its entries are found for the webview's getRaw and diffs.
  const tool = store.session(CHILD)!.entries.find((e) => e.kind === 'tool_call');
  assert.equal(feeds.entry(tool!.key)?.key, tool!.key);
  assert.equal(feeds.entry(store.session(ROOT)!.entries[0]!.key), undefined);
});

test('a collapsed child costs nothing: no feed before it is expanded, none after; its model is disposed', () => {
  const { store, source, play, rest, opened } = chat();
  const posts: HostToWebview[] = [];
  let pendingCalls = 0;
  const feeds = new SubagentFeeds(
    (m) => posts.push(m),
    () => pendingCalls++,
    () => 0,
  );
  feeds.expand([], source);
  play((s) => (s.session(CHILD)?.entries.length ?? 0) >= 2);
  assert.equal(posts.length, 0, 'collapsed: nothing posted while the child streams');
  feeds.expand([CHILD], source);
  assert.equal(posts.length, 1);
  play((s) => (s.session(CHILD)?.entries.length ?? 0) >= 3);
  assert.ok(pendingCalls > 0, 'a change of an expanded child asks for a frame');
  feeds.flush();
  const whileOpen = posts.length;
  assert.ok(whileOpen > 1);
  let firedAfterCollapse = 0;
  opened[0]!.onDidChange(() => firedAfterCollapse++);
  feeds.expand([], source);
  assert.equal(feeds.pending, false);
  const calls = pendingCalls;
  rest();
  assert.equal(feeds.frame(), false);
  assert.equal(posts.length, whileOpen, 'collapsed again: nothing more');
  assert.equal(pendingCalls, calls, 'and no frame asked for');
  assert.equal(opened.length, 1);
  assert.equal(firedAfterCollapse, 0, "the collapsed child's model is disposed: it no longer listens to the store");
  // Expanded again: a fresh snapshot with everything, then clear() (the chat's snapshot) stops it.
  feeds.expand([CHILD], source);
  const last: HostToWebview | undefined = posts.at(-1);
  assert.ok(last?.type === 'subagent' && last.message.type === 'snapshot' && last.message.entries.length === store.session(CHILD)!.entries.length);
  feeds.clear();
  assert.deepEqual(feeds.expanded, []);
});
