// Runs the copied conformance vectors (test/conformance/vectors) through the store in-process, with
// the same comparison as shared/conformance/check.mjs: one pass, and two halves through toJSON/fromJSON
// (which must give the same transcript with every entry keeping its key).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, toReduceOutput } from '../../src/common/store';

const dir = path.resolve(__dirname, '../conformance/vectors');
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
const isObj = (x: Json | undefined): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function mergeText(blocks: Json | undefined): Json[] {
  const out: Json[] = [];
  for (const b of Array.isArray(blocks) ? blocks : []) {
    const last = out[out.length - 1];
    if (isObj(b) && b.type === 'text' && isObj(last) && last.type === 'text') out[out.length - 1] = { type: 'text', text: `${String(last.text)}${String(b.text)}` };
    else if (isObj(b) && b.type === 'text') out.push({ type: 'text', text: b.text ?? '' });
    else out.push(b);
  }
  return out.filter((b) => !(isObj(b) && b.type === 'text' && b.text === ''));
}
const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

function project(actual: Obj, expected: Obj): string[] {
  const problems: string[] = [];
  const sessions = Array.isArray(actual.sessions) ? actual.sessions.filter(isObj) : [];
  const want = Array.isArray(expected.sessions) ? expected.sessions.filter(isObj) : [];
  if (sessions.length !== want.length) problems.push(`sessions: expected ${want.length}, got ${sessions.length}`);
  want.forEach((es, si) => {
    const as = sessions[si];
    if (!as) return;
    if (as.sessionId !== es.sessionId) problems.push(`session ${si}: id ${String(as.sessionId)}`);
    const entries = Array.isArray(as.entries) ? as.entries.filter(isObj) : [];
    const wantEntries = Array.isArray(es.entries) ? es.entries.filter(isObj) : [];
    if (entries.length !== wantEntries.length) problems.push(`expected ${wantEntries.length} entries, got ${entries.length}`);
    const keys = new Set<Json | undefined>(entries.map((e) => e.key));
    if (keys.size !== entries.length || keys.has(undefined) || keys.has('')) problems.push('entry keys missing or repeated');
    wantEntries.forEach((ee, i) => {
      const ae = entries[i];
      if (!ae) return;
      const a: Obj = {};
      const w: Obj = { ...ee };
      for (const f of Object.keys(ee)) if (f in ae) a[f] = ae[f] ?? null;
      if (ee.kind !== 'tool_call' && 'content' in ee) {
        a.content = mergeText(ae.content);
        w.content = mergeText(ee.content);
      }
      for (const f of Object.keys(ee)) if (!(f in ae) && ee[f] === null) a[f] = null;
      if (stable(a) !== stable(w)) problems.push(`entry ${i}: expected ${stable(w)} got ${stable(a)}`);
    });
    for (const f of ['plan', 'currentModeId'])
      if (f in es && stable(as[f] ?? null) !== stable(es[f])) problems.push(`${f}: expected ${stable(es[f])} got ${stable(as[f] ?? null)}`);
    if ('availableCommands' in es) {
      const names = (Array.isArray(as.availableCommands) ? as.availableCommands.filter(isObj) : []).map((c) => c.name ?? null);
      if (stable(names) !== stable(es.availableCommands)) problems.push(`availableCommands: ${stable(names)}`);
    }
  });
  const diags = Array.isArray(actual.diagnostics) ? actual.diagnostics.filter(isObj) : [];
  const errors = diags.filter((d) => d.severity === 'error').length;
  if (errors !== expected.errors) problems.push(`error diagnostics: expected ${String(expected.errors)}, got ${errors}`);
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  if (typeof expected.warningsAtLeast === 'number' && warnings < expected.warningsAtLeast) problems.push(`warnings: ${warnings}`);
  return problems;
}

function reduce(lines: readonly string[], from?: MessageStore): MessageStore {
  let n = 0;
  const store = from ?? new MessageStore({ newKey: () => `k${n++}-${Math.random().toString(36).slice(2)}` });
  lines.forEach((l, i) => store.ingestLine(l, i + 1));
  return store;
}
const output = (s: MessageStore): Obj => JSON.parse(JSON.stringify(toReduceOutput(s))) as Obj;

const vectors = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

test('the copied vectors are all there', () => {
  assert.ok(vectors.length >= 43, `only ${vectors.length} vectors in ${dir}`);
});

for (const file of vectors) {
  const name = file.replace(/\.jsonl$/, '');
  test(`conformance ${name}`, () => {
    const expected = JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), 'utf8')) as Obj;
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(project(output(reduce(lines)), expected), [], String(expected.description));

    // Save/restore in the middle: same transcript, same keys for every entry that has an id.
    const mid = Math.floor(lines.length / 2);
    const first = reduce(lines.slice(0, mid));
    const saved = JSON.parse(JSON.stringify(first.toJSON())) as unknown;
    const restored = MessageStore.fromJSON(saved);
    assert.deepEqual(restored.diagnostics, []);
    const second = reduce(lines.slice(mid), restored.store);
    assert.deepEqual(project(output(second), expected), [], `after save/restore: ${String(expected.description)}`);
    const keyOf = (s: MessageStore) =>
      new Map(
        s
          .sessions()
          .flatMap((ss) =>
            ss.entries.map(
              (e) =>
                [
                  `${ss.sessionId}/${e.kind === 'tool_call' ? e.toolCallId : e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' ? '?' : (e.messageId ?? '?')}`,
                  e.key,
                ] as const,
            ),
          ),
      );
    const before = keyOf(first);
    for (const [id, key] of keyOf(second)) if (before.has(id) && !id.endsWith('/?')) assert.equal(key, before.get(id), `${id} changed key`);
  });
}
