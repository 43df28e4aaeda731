// Random v1 update sequences against a tiny, naive (O(n²)) reference model of the same rules, with
// save/restore (toJSON -> JSON text -> fromJSON) at random points. Keys must never change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MessageStore, textOf } from '../../../src/common/store';
import { ClientMethods } from '../../../src/common/protocol/methods';

type Op =
  | { op: 'chunk'; kind: 'user_message' | 'agent_message' | 'agent_thought'; id: string | null; text: string }
  | { op: 'tool'; id: string; title: string; status: string | null }
  | { op: 'toolUpdate'; id: string; title: string | null; status: string | null }
  | { op: 'save' };

interface RefEntry {
  kind: string;
  id: string | null;
  text: string;
  title: string;
  status: string;
}

/** The rules, spelled out as plainly as possible (linear scans, no maps). */
function reference(ops: readonly Op[]): { entries: RefEntry[]; errors: number; warnings: number } {
  const entries: RefEntry[] = [];
  let open: RefEntry | null = null;
  const errors = 0;
  let warnings = 0;
  for (const o of ops) {
    if (o.op === 'save') continue;
    if (o.op === 'chunk') {
      if (o.text === '') continue;
      let target: RefEntry | null = null;
      if (o.id !== null) {
        // A message's identity is its kind and its id: the same id on another kind is another message (with a warning).
        const byId = entries.find((e) => e.kind === o.kind && e.id === o.id) ?? null;
        target = byId ?? (open && open.kind === o.kind && open.id === null ? open : null);
        if (target) target.id = o.id;
        else if (entries.some((e) => e.kind !== 'tool_call' && e.id === o.id)) warnings++;
      } else if (open && open.kind === o.kind) target = open;
      if (!target) {
        target = { kind: o.kind, id: o.id, text: '', title: '', status: '' };
        entries.push(target);
      }
      target.text += o.text;
      open = target;
      continue;
    }
    open = null;
    const existing = entries.find((e) => e.kind === 'tool_call' && e.id === o.id);
    if (o.op === 'tool') {
      const snap = { kind: 'tool_call', id: o.id, text: '', title: o.title, status: o.status ?? 'pending' };
      if (existing) Object.assign(existing, snap);
      else entries.push(snap);
    } else if (existing) {
      if (o.title !== null) existing.title = o.title;
      if (o.status !== null) existing.status = o.status;
    } else {
      warnings++;
      entries.push({ kind: 'tool_call', id: o.id, text: '', title: o.title ?? '', status: o.status ?? 'pending' });
    }
  }
  return { entries, errors, warnings };
}

const wire = (update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId: 's', update } });

function toMessage(o: Exclude<Op, { op: 'save' }>): unknown {
  switch (o.op) {
    case 'chunk':
      return wire({ sessionUpdate: `${o.kind}_chunk`, content: { type: 'text', text: o.text }, ...(o.id !== null ? { messageId: o.id } : {}) });
    case 'tool':
      return wire({ sessionUpdate: 'tool_call', toolCallId: o.id, title: o.title, ...(o.status !== null ? { status: o.status } : {}) });
    case 'toolUpdate':
      return wire({ sessionUpdate: 'tool_call_update', toolCallId: o.id, title: o.title, status: o.status });
  }
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('chunk' as const),
      kind: fc.constantFrom('user_message' as const, 'agent_message' as const, 'agent_thought' as const),
      id: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: null }),
      text: fc.constantFrom('', 'x', 'yz', 'é', '\n'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('tool' as const),
      id: fc.constantFrom('t1', 't2'),
      title: fc.constantFrom('Read', 'Edit'),
      status: fc.option(fc.constantFrom('pending', 'completed'), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('toolUpdate' as const),
      id: fc.constantFrom('t1', 't2', 't3'),
      title: fc.option(fc.constantFrom('Run', 'Grep'), { nil: null }),
      status: fc.option(fc.constantFrom('in_progress', 'failed'), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'save' as const }) },
);

test('store matches the reference model, across save/restore, keeping keys', () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
      let n = 0;
      const options = { newKey: () => `key-${n++}` };
      let store = new MessageStore(options);
      const keys: string[] = [];
      ops.forEach((o, i) => {
        if (o.op === 'save') {
          const restored = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())), options);
          assert.deepEqual(restored.diagnostics, []);
          store = restored.store;
        } else store.ingest('agent->client', toMessage(o), i + 1);
        // Keys are assigned once and never change.
        const entries = store.session('s')?.entries ?? [];
        entries.forEach((e, j) => {
          if (keys[j] === undefined) keys[j] = e.key;
          else assert.equal(e.key, keys[j], `entry ${j} changed key after op ${i}`);
        });
        assert.equal(new Set(entries.map((e) => e.key)).size, entries.length, 'duplicate key');
      });
      const ref = reference(ops);
      const got = (store.session('s')?.entries ?? []).map((e): RefEntry =>
        e.kind === 'tool_call'
          ? { kind: e.kind, id: e.toolCallId, text: '', title: e.title, status: e.status }
          : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction'
            ? assert.fail('no elicitations in this model')
            : { kind: e.kind, id: e.messageId, text: textOf(e.content), title: '', status: '' },
      );
      assert.deepEqual(got, ref.entries);
      const diags = store.diagnostics();
      assert.equal(diags.filter((d) => d.severity === 'error').length, ref.errors);
      assert.equal(diags.filter((d) => d.severity === 'warning').length, ref.warnings);
      // Text is never split into adjacent text blocks (appends are O(1) into the last block).
      for (const e of store.session('s')?.entries ?? [])
        if (e.kind !== 'tool_call' && e.kind !== 'elicitation' && e.kind !== 'subagent' && e.kind !== 'compaction')
          assert.ok(e.content.every((b, i) => i === 0 || !(b.type === 'text' && e.content[i - 1]?.type === 'text')));
    }),
    { numRuns: 400 },
  );
});
