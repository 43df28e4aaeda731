// PriorIndex (the replay window's look-up, issue 39 class 10) finds what a scan of every prior entry finds:
// for random prior messages and tool calls (short and long texts sharing starts), random matched sets and
// random replayed texts of every length, `first` with rule 2's `fitsStart` answers as the linear scan that it
// replaced, including texts shorter than 8 characters (whose look-up levels are built on first use).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Entry } from '../../../src/common/store/model';
import { PriorIndex } from '../../../src/common/store/replayIndex';
import { fitsStart } from '../../../src/common/store/replayText';

const KINDS = ['user_message', 'agent_message', 'tool_call'] as const;
type Kind = (typeof KINDS)[number];
// Few letters, so texts share starts of every length.
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 0, maxLength: 12 });
const prior = fc.array(fc.record({ kind: fc.constantFrom(...KINDS), text, taken: fc.boolean() }), { minLength: 0, maxLength: 40 });
const ask = fc.record({ kind: fc.constantFrom<Kind>('user_message', 'agent_message'), want: text, from: fc.nat(45) });

/** The linear scan PriorIndex replaced: rule 1's search, entry by entry. */
function scan(items: { kind: Kind; text: string; taken: boolean }[], kind: Kind, want: string, from: number): number {
  let stop = items.length;
  if (kind !== 'user_message') {
    const next = items.findIndex((x, i) => i >= from && x.kind === 'user_message' && !x.taken);
    if (next >= 0) stop = next;
  }
  for (let i = from; i < stop; i++) {
    const x = items[i];
    if (x && x.kind === kind && !x.taken && fitsStart(x.text, want)) return i;
  }
  return -1;
}

test('PriorIndex.first finds what a scan of every prior entry finds', () => {
  fc.assert(
    fc.property(prior, fc.array(ask, { minLength: 1, maxLength: 12 }), (items, asks) => {
      const entries = items.map((x) => ({ kind: x.kind }) as Entry);
      const index = new PriorIndex(
        (i) => entries[i],
        items.length,
        (e, i) => (e.kind === 'tool_call' ? null : (items[i]?.text ?? null)),
      );
      const taken = (i: number) => items[i]?.taken === true;
      for (const a of asks) {
        const got = index.first(a.kind, a.want, a.from, taken, (e) => e.kind === a.kind && fitsStart(items[entries.indexOf(e)]?.text ?? '', a.want));
        assert.equal(got, scan(items, a.kind, a.want, a.from), `${a.kind} "${a.want}" from ${a.from}`);
      }
    }),
    { numRuns: 400 },
  );
});
