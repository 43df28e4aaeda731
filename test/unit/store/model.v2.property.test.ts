// v2 rules against a naive reference model: chunks with required ids, whole-message upserts with
// patch fields (omitted / null / value, _meta by top-level key), tool_call_update upserts where null
// clears, tool_call_content_chunk appends — with save/restore at random points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MessageStore, textOf } from '../../../src/common/store';
import { ClientMethods } from '../../../src/common/protocol/methods';
import { connected } from './helpers';

type Kind = 'user_message' | 'agent_message' | 'agent_thought';
type MetaPatch = Record<string, number | null> | null | undefined;
type Op =
  | { op: 'chunk'; kind: Kind; id: string; text: string }
  | { op: 'upsert'; kind: Kind; id: string; content: string[] | null | undefined; meta: MetaPatch }
  | { op: 'tool'; id: string; title: string | null | undefined; status: string | null | undefined }
  | { op: 'toolChunk'; id: string; text: string }
  | { op: 'save' };

interface Ref {
  kind: string;
  id: string;
  text: string;
  meta: Record<string, number> | null;
  title: string;
  status: string;
  items: string[];
}

function reference(ops: readonly Op[]): { entries: Ref[]; errors: number } {
  const entries: Ref[] = [];
  const errors = 0;
  const blank = (kind: string, id: string): Ref => ({ kind, id, text: '', meta: null, title: '', status: '', items: [] });
  for (const o of ops) {
    if (o.op === 'save') continue;
    if (o.op === 'chunk' && o.text === '') continue; // an empty text chunk changes nothing, not even an error
    if (o.op === 'chunk' || o.op === 'upsert') {
      // A message's identity is its kind and its id: the same id on another kind is another message.
      let e = entries.find((x) => x.kind === o.kind && x.id === o.id);
      if (o.op === 'chunk') {
        if (!e) entries.push((e = blank(o.kind, o.id)));
        e.text += o.text;
        continue;
      }
      if (!e) entries.push((e = blank(o.kind, o.id)));
      if (o.content !== undefined) e.text = (o.content ?? []).join('');
      if (o.meta === null) e.meta = null;
      else if (o.meta !== undefined) {
        const m: Record<string, number> = { ...(e.meta ?? {}) };
        for (const [k, v] of Object.entries(o.meta))
          if (v === null) delete m[k];
          else m[k] = v;
        e.meta = m;
      }
      continue;
    }
    let t = entries.find((x) => x.kind === 'tool_call' && x.id === o.id);
    if (!t) entries.push((t = { ...blank('tool_call', o.id), status: 'pending' }));
    if (o.op === 'toolChunk') {
      t.items.push(o.text);
      continue;
    }
    if (o.title !== undefined) t.title = o.title ?? '';
    if (o.status !== undefined) t.status = o.status ?? 'pending';
  }
  return { entries, errors };
}

const wire = (update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId: 's', update } });
const text = (t: string) => ({ type: 'text', text: t });
function toMessage(o: Exclude<Op, { op: 'save' }>): unknown {
  switch (o.op) {
    case 'chunk':
      return wire({ sessionUpdate: `${o.kind}_chunk`, messageId: o.id, content: text(o.text) });
    case 'upsert':
      return wire({
        sessionUpdate: o.kind,
        messageId: o.id,
        ...(o.content !== undefined ? { content: o.content && o.content.map(text) } : {}),
        ...(o.meta !== undefined ? { _meta: o.meta } : {}),
      });
    case 'tool':
      return wire({
        sessionUpdate: 'tool_call_update',
        toolCallId: o.id,
        ...(o.title !== undefined ? { title: o.title } : {}),
        ...(o.status !== undefined ? { status: o.status } : {}),
      });
    case 'toolChunk':
      return wire({ sessionUpdate: 'tool_call_content_chunk', toolCallId: o.id, content: { type: 'content', content: text(o.text) } });
  }
}

const kind = fc.constantFrom<Kind>('user_message', 'agent_message', 'agent_thought');
const id = fc.constantFrom('a', 'b', 'c');
const txt = fc.constantFrom('', 'x', 'yz', '✓');
const opt = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, fc.constant(null), fc.constant(undefined));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('chunk' as const), kind, id, text: txt }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('upsert' as const),
      kind,
      id,
      content: opt(fc.array(txt, { maxLength: 2 })),
      meta: opt(fc.dictionary(fc.constantFrom('p', 'q'), fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), { maxKeys: 2 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('tool' as const),
      id: fc.constantFrom('t1', 't2'),
      title: opt(fc.constantFrom('Run', 'Read')),
      status: opt(fc.constantFrom('in_progress', 'completed')),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('toolChunk' as const), id: fc.constantFrom('t1', 't2'), text: txt }) },
  { weight: 1, arbitrary: fc.constant({ op: 'save' as const }) },
);

test('v2 store matches the reference model, across save/restore, keeping keys', () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
      let store: MessageStore = connected(2);
      const options = { newKey: () => `k-${Math.random()}` };
      const keys = new Map<string, string>();
      for (const o of ops) {
        if (o.op === 'save') {
          const r = MessageStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())), options);
          assert.deepEqual(r.diagnostics, []);
          store = r.store;
        } else store.ingest('agent->client', toMessage(o));
        for (const e of store.session('s')?.entries ?? []) {
          const ident =
            e.kind === 'tool_call'
              ? `t/${e.toolCallId}`
              : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction'
                ? `e/${e.key}`
                : `m/${e.kind}/${e.messageId ?? ''}`;
          const seen = keys.get(ident);
          if (seen === undefined) keys.set(ident, e.key);
          else assert.equal(e.key, seen, `${ident} changed key`);
        }
      }
      const ref = reference(ops);
      const got = (store.session('s')?.entries ?? []).map((e): Ref =>
        e.kind === 'tool_call'
          ? {
              kind: e.kind,
              id: e.toolCallId,
              text: '',
              meta: null,
              title: e.title,
              status: e.status,
              items: e.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '?')),
            }
          : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction'
            ? assert.fail('no elicitations in this model')
            : { kind: e.kind, id: e.messageId ?? '', text: textOf(e.content), meta: (e.meta as Record<string, number> | null) ?? null, title: '', status: '', items: [] },
      );
      assert.deepEqual(got, ref.entries);
      assert.equal(store.diagnostics().filter((d) => d.severity === 'error').length, ref.errors);
    }),
    { numRuns: 400 },
  );
});
