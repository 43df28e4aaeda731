// Every change to an entry reaches the view: a mirror built only from the store's emitted changes, sent
// through the shipped panel pipeline (PanelSource -> PanelFeed, as a chat and its ChatWebview run it),
// decoded by the webview's WireDecoder and applied the way the webview applies patches (insert / replace /
// appendText with the webview's own `appendTextToEntry`, field-level `fields` patches with its
// `applyFieldsToEntry`), equals the store's entries as the webview holds them (`toViewEntry`: raw JSON
// as a summary, fetched on demand; `rawOf` answers that request with the store's own raw JSON) after
// every flush.
// Random v1 and v2 traffic with prompts, echoes, tool calls, cancels, session/load windows whose replays
// repeat, skip, merge and re-id what was shown, and save/restore of the store at random points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, type StoreDelta } from '../../../src/common/store';
import type { Entry } from '../../../src/common/store/model';
import { AgentMethods, ClientMethods } from '../../../src/common/protocol/methods';
import { PanelFeed, PanelSource } from '../../../src/common/webview/panelFeed';
import type { HostToWebview, PatchOp } from '../../../src/common/webview/contract';
import { EMPTY_PANEL } from '../../../src/common/webview/emptyPanel';
import { rawOf, toViewEntry, type ViewEntry } from '../../../src/common/webview/viewEntry';
import { appendTextToEntry, applyFieldsToEntry, textAppendedBy } from '../../../webview/entryModel';
import { WireDecoder } from '../../../src/common/webview/wireDecoder';

type Op =
  | { op: 'prompt'; text: string }
  | { op: 'promptDone' }
  | { op: 'chunk'; kind: 'user_message' | 'agent_message' | 'agent_thought'; id: string | null; text: string }
  | { op: 'upsert'; kind: 'user_message' | 'agent_message' | 'agent_thought'; id: string; text: string | null }
  | { op: 'tool'; id: string; title: string; kind: string; diff: boolean }
  | { op: 'toolUpdate'; id: string; title: string | null; status: string | null; text: string | null; meta: string | null }
  | { op: 'toolChunk'; id: string; text: string }
  | { op: 'cancel' }
  | { op: 'load' }
  | { op: 'loadDone' }
  | { op: 'flush' }
  | { op: 'save' }
  /** The webview reloads: a fresh snapshot (handles numbered again), then patches go on. */
  | { op: 'reopen' }
  /** A session/load whose replay re-sends the history so far, reshaped the way real agents reshape it. */
  | { op: 'replay'; noIds: boolean; noThoughts: boolean; merge: boolean; newToolIds: boolean };

const TEXTS = ['', 'Hello', 'Hel', 'lo', ' world', 'x', '\n\n', 'Hello world'];
const kindArb = fc.constantFrom('user_message' as const, 'agent_message' as const, 'agent_thought' as const);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ op: fc.constant('prompt' as const), text: fc.constantFrom('Hello', 'Hi there') }) },
  { weight: 1, arbitrary: fc.constant({ op: 'promptDone' as const }) },
  {
    weight: 8,
    arbitrary: fc.record({ op: fc.constant('chunk' as const), kind: kindArb, id: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }), text: fc.constantFrom(...TEXTS) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('upsert' as const), kind: kindArb, id: fc.constantFrom('a', 'b', 'c', 'd'), text: fc.option(fc.constantFrom(...TEXTS), { nil: null }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('tool' as const),
      id: fc.constantFrom('t1', 't2', 't3'),
      title: fc.constantFrom('bash', 'ls -la', 'Edit a.txt'),
      kind: fc.constantFrom('execute', 'edit', 'other'),
      diff: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('toolUpdate' as const),
      id: fc.constantFrom('t1', 't2', 't3', 't4'),
      title: fc.option(fc.constantFrom('bash', 'ls -la'), { nil: null }),
      status: fc.option(fc.constantFrom('in_progress', 'completed'), { nil: null }),
      text: fc.option(fc.constantFrom('out', 'Edit applied.'), { nil: null }),
      meta: fc.option(fc.constantFrom('one', 'two'), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('toolChunk' as const), id: fc.constantFrom('t1', 't2'), text: fc.constantFrom('a', 'b') }) },
  { weight: 1, arbitrary: fc.constant({ op: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'load' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'loadDone' as const }) },
  { weight: 2, arbitrary: fc.constant({ op: 'flush' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'save' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'reopen' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replay' as const), noIds: fc.boolean(), noThoughts: fc.boolean(), merge: fc.boolean(), newToolIds: fc.boolean() }) },
);

type HistoryOp = Extract<Op, { op: 'chunk' | 'upsert' | 'tool' | 'toolUpdate' | 'toolChunk' }>;

/** The history as a replay of the given shape sends it. */
function reshape(history: readonly HistoryOp[], r: Extract<Op, { op: 'replay' }>, v2: boolean): HistoryOp[] {
  const out: HistoryOp[] = [];
  for (const h of history) {
    if (r.noThoughts && (h.op === 'chunk' || h.op === 'upsert') && h.kind === 'agent_thought') continue;
    let o: HistoryOp = h;
    if (r.noIds && !v2 && o.op === 'chunk') o = { ...o, id: null };
    if (r.newToolIds && (o.op === 'tool' || o.op === 'toolUpdate' || o.op === 'toolChunk')) o = { ...o, id: `r-${o.id}` };
    const last = out[out.length - 1];
    if (r.merge && o.op === 'chunk' && last?.op === 'chunk' && last.kind === o.kind && last.id === o.id) out[out.length - 1] = { ...last, text: last.text + o.text };
    else out.push(o);
  }
  return out;
}

const update = (u: Record<string, unknown>) => ({ jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId: 's', update: u } });

/** The wire messages for one op (`next` numbers requests). */
function wire(o: Op, v2: boolean, next: () => number): { dir: 'client->agent' | 'agent->client'; msg: unknown }[] {
  const text = (t: string) => ({ type: 'text', text: t });
  switch (o.op) {
    case 'prompt':
      return [{ dir: 'client->agent', msg: { jsonrpc: '2.0', id: `p${next()}`, method: AgentMethods.sessionPrompt, params: { sessionId: 's', prompt: [text(o.text)] } } }];
    case 'chunk':
      // v2 chunks require an id.
      return [
        { dir: 'agent->client', msg: update({ sessionUpdate: `${o.kind}_chunk`, content: text(o.text), ...(o.id !== null ? { messageId: o.id } : v2 ? { messageId: 'z' } : {}) }) },
      ];
    case 'upsert':
      return v2 ? [{ dir: 'agent->client', msg: update({ sessionUpdate: o.kind, messageId: o.id, ...(o.text !== null ? { content: [text(o.text)] } : {}) }) }] : [];
    case 'tool': {
      const content = o.diff ? [{ type: 'diff', path: '/a.txt', oldText: 'a', newText: 'b' }] : [];
      return [
        {
          dir: 'agent->client',
          msg: update({ sessionUpdate: 'tool_call', toolCallId: o.id, title: o.title, kind: o.kind, content, rawInput: o.kind === 'execute' ? { command: o.title } : {} }),
        },
      ];
    }
    case 'toolUpdate':
      return [
        {
          dir: 'agent->client',
          msg: update({
            sessionUpdate: 'tool_call_update',
            toolCallId: o.id,
            ...(o.title !== null ? { title: o.title } : {}),
            ...(o.status !== null ? { status: o.status } : {}),
            ...(o.text !== null ? { content: [{ type: 'content', content: text(o.text) }] } : {}),
            ...(o.meta !== null ? { _meta: { terminal_output: { terminal_id: 'x', data: o.meta } } } : {}),
          }),
        },
      ];
    case 'toolChunk':
      return v2 ? [{ dir: 'agent->client', msg: update({ sessionUpdate: 'tool_call_content_chunk', toolCallId: o.id, content: { type: 'content', content: text(o.text) } }) }] : [];
    case 'cancel':
      return [{ dir: 'client->agent', msg: { jsonrpc: '2.0', method: AgentMethods.sessionCancel, params: { sessionId: 's' } } }];
    case 'load':
      return [{ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 'load', method: AgentMethods.sessionLoad, params: { sessionId: 's', cwd: '/ws', mcpServers: [] } } }];
    case 'loadDone':
      return [{ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 'load', result: {} } }];
    case 'promptDone':
    case 'flush':
    case 'save':
    case 'reopen':
    case 'replay':
      return [];
  }
}

/** What the view keeps of a store entry, as plain JSON (what `postMessage` preserves). */
function shown(e: Entry | ViewEntry): unknown {
  return JSON.parse(JSON.stringify('stats' in e ? toViewEntry(e) : e));
}

/** The webview's side: ops decoded from their wire form (handles, wire entries) and applied to its own copy of the entries. */
function applyOps(view: ViewEntry[], ops: readonly PatchOp[], decoder: WireDecoder): void {
  for (const wireOp of ops) {
    if (wireOp.op !== 'insert' && wireOp.op !== 'replace' && wireOp.op !== 'appendText' && wireOp.op !== 'fields') continue;
    const op = decoder.entryOp(wireOp);
    if (op.op === 'insert') view.splice(op.index, 0, op.entry);
    else {
      const key = op.op === 'replace' ? op.entry.key : op.key;
      const i = view.findIndex((e) => e.key === key);
      assert.ok(i >= 0, `${op.op} of an entry the view does not have (${key})`);
      const cur = view[i];
      assert.ok(cur);
      view[i] = op.op === 'replace' ? op.entry : op.op === 'fields' ? applyFieldsToEntry(cur, op.patch) : appendTextToEntry(cur, op.text);
      // The streaming renderer adds the text `textAppendedBy` names instead of comparing: all the patch changes of the content.
      const added = op.op === 'fields' ? textAppendedBy(op.patch) : undefined;
      const contentOf = (e: ViewEntry | undefined) => (e && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction' ? e.content : null);
      if (added !== undefined) assert.deepEqual(contentOf(view[i]), contentOf(appendTextToEntry(cur, added)));
    }
  }
}

function run(ops: readonly Op[], v2: boolean): void {
  let n = 0;
  let req = 0;
  // The clock moves on every read: a thought's span (first to last chunk) reaches the view as it grows.
  let clock = 1000;
  const options = { newKey: () => `key-${n++}`, now: () => (clock += 7) };
  let store = new MessageStore(options);
  const ingest = (dir: 'client->agent' | 'agent->client', msg: unknown): readonly StoreDelta[] => store.ingest(dir, msg);
  const version = v2 ? 2 : 1;
  ingest('client->agent', { jsonrpc: '2.0', id: 'init', method: AgentMethods.initialize, params: { protocolVersion: version } });
  ingest('agent->client', { jsonrpc: '2.0', id: 'init', result: { protocolVersion: version } });
  ingest('client->agent', { jsonrpc: '2.0', id: 'new', method: AgentMethods.sessionNew, params: { cwd: '/ws', mcpServers: [] } });
  ingest('agent->client', { jsonrpc: '2.0', id: 'new', result: { sessionId: 's' } });

  const view: ViewEntry[] = [];
  const decoder = new WireDecoder();
  // The webview's side: what the feed posts, decoded and applied as it arrives.
  const receive = (m: HostToWebview) => {
    if (m.type === 'snapshot') view.splice(0, view.length, ...decoder.snapshot(m.entries, m.olderCount ?? 0));
    else if (m.type === 'older') view.unshift(...decoder.older(m.entries, m.olderCount));
    else if (m.type === 'patch') applyOps(view, m.ops, decoder);
  };
  const source = new PanelSource();
  const panelFeed = new PanelFeed(receive);
  source.onDidChange((c) => assert.ok(panelFeed.changed(c), 'the store alone never resets the panel'));
  const feed = (dir: 'client->agent' | 'agent->client', msg: unknown) => {
    source.storeChanged(ingest(dir, msg), 's', () => store.session('s'));
  };
  let loading = false;
  const history: HistoryOp[] = [];
  const flush = (at: number) => {
    panelFeed.flush();
    const entries = store.session('s')?.entries ?? [];
    assert.deepEqual(view.map(shown), entries.map(shown), `view differs from the store after op ${at}`);
    // The raw JSON left on the host is there for every tool call whose summary says so.
    for (const e of entries) {
      const v = view.find((x) => x.key === e.key);
      if (v?.kind !== 'tool_call' || e.kind !== 'tool_call') continue;
      const raw = rawOf(e);
      assert.equal(v.raw?.input !== undefined, raw?.input !== null, `raw input summary of ${e.key}`);
      assert.equal(v.raw?.output !== undefined, raw?.output !== null, `raw output summary of ${e.key}`);
      if (raw?.input !== null) assert.equal(v.raw?.input, JSON.stringify(raw?.input).length);
    }
  };
  ops.forEach((o, i) => {
    if (o.op === 'flush') return flush(i);
    if (o.op === 'save') {
      // The store is saved and restored between changes; the view keeps what it was sent.
      panelFeed.flush();
      store = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())), options).store;
      return;
    }
    if (o.op === 'reopen') {
      // What ChatWebview does on `ready`: the feed starts over from the snapshot it posts.
      panelFeed.snapshot(store.session('s')?.entries ?? [], EMPTY_PANEL);
      return;
    }
    if (o.op === 'load' && loading) return;
    if (o.op === 'loadDone' && !loading) return;
    if (o.op === 'load') loading = true;
    if (o.op === 'loadDone') loading = false;
    if (o.op === 'promptDone') {
      feed('agent->client', { jsonrpc: '2.0', id: `p${req}`, result: { stopReason: 'end_turn', ...(v2 ? { messageId: 'u-ack' } : {}) } });
      return;
    }
    if (o.op === 'replay') {
      if (loading) return;
      for (const h of [{ op: 'load' } as const, ...reshape(history, o, v2), { op: 'loadDone' } as const]) for (const m of wire(h, v2, () => ++req)) feed(m.dir, m.msg);
      return;
    }
    if (!loading && (o.op === 'chunk' || o.op === 'upsert' || o.op === 'tool' || o.op === 'toolUpdate' || o.op === 'toolChunk')) history.push(o);
    for (const m of wire(o, v2, () => ++req)) feed(m.dir, m.msg);
  });
  flush(ops.length);
}

for (const v2 of [false, true]) {
  test(`v${v2 ? 2 : 1}: applying the emitted patches to the view's copy gives the store's entries`, () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => run(ops, v2)),
      { numRuns: 500 },
    );
  });
}

test('a replayed message matched without an id is not doubled in the view (issue 12)', () => {
  run(
    [
      { op: 'chunk', kind: 'agent_message', id: null, text: 'Hello' },
      { op: 'flush' },
      { op: 'load' },
      { op: 'chunk', kind: 'agent_message', id: null, text: 'Hello' },
      { op: 'loadDone' },
    ],
    false,
  );
});

// The recorded agents (subagent cards, compactions, questions and all): fed line by line through the same
// pipeline, the view equals the store after every line, and a subagent card's later states go as field
// patches, not as the whole card again.
test('every recorded transcript: the view equals the store after each line; subagent cards change by fields', () => {
  const dir = path.join(__dirname, '../../fixtures/transcripts');
  let subagentFields = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
    const store = new MessageStore();
    const view: ViewEntry[] = [];
    const decoder = new WireDecoder();
    let shownId: string | null = null;
    const panelFeed = new PanelFeed((m) => {
      if (m.type !== 'patch') return;
      applyOps(view, m.ops, decoder);
      for (const op of m.ops) {
        const d = op.op === 'fields' ? decoder.entryOp(op) : undefined;
        if (d?.op === 'fields' && view.find((e) => e.key === d.key)?.kind === 'subagent') subagentFields++;
      }
      assert.ok(!m.ops.some((op) => op.op === 'replace' && op.entry.kind === 'subagent'), `${f}: a subagent card sent whole again`);
    });
    const source = new PanelSource();
    source.onDidChange((c) => assert.ok(panelFeed.changed(c)));
    const lines = readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean);
    lines.forEach((line, i) => {
      const r = JSON.parse(line) as { dir: string; msg: unknown };
      if (r.dir !== 'client->agent' && r.dir !== 'agent->client') return;
      const changes = store.ingest(r.dir, r.msg);
      // The session the panel shows: the first one the agent created (each recording has one).
      shownId ??= store.sessions()[0]?.sessionId ?? null;
      const id = shownId;
      source.storeChanged(changes, id, () => (id === null ? undefined : store.session(id)));
      panelFeed.flush();
      const entries = id === null ? [] : (store.session(id)?.entries ?? []);
      assert.deepEqual(view.map(shown), entries.map(shown), `${f}: the view differs from the store after line ${i + 1}`);
    });
  }
  assert.ok(subagentFields > 0, 'some subagent card changed by fields');
});
