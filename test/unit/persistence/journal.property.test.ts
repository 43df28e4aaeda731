// The journal never drops or repeats a record, whatever the interleaving of appends, flushes and
// compactions: random programs run them without waiting for each other (as the extension does, which
// compacts from inside its append path), with real file I/O in between; after each step the journal is
// closed and reopened from disk, and the reopened store must hold every record appended so far, once,
// in order, with no diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { textOf, type MessageStore } from '../../../src/common/store';
import { StoreJournal } from '../../../src/node/persistence/journal';
import { AgentMethods } from '../../../src/common/protocol/methods';
import { chunk, ok, req } from '../store/helpers';

type Cmd =
  | { op: 'append'; n: number }
  | { op: 'flush' }
  | { op: 'compact' }
  /** Lets the event loop turn: queued microtasks, one macrotask, or one file-system round trip. */
  | { op: 'tick'; kind: 'micro' | 'immediate' | 'io' };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }).map((n): Cmd => ({ op: 'append', n })) },
  { weight: 2, arbitrary: fc.constant<Cmd>({ op: 'flush' }) },
  { weight: 2, arbitrary: fc.constant<Cmd>({ op: 'compact' }) },
  { weight: 3, arbitrary: fc.constantFrom('micro', 'immediate', 'io').map((kind): Cmd => ({ op: 'tick', kind })) },
);

const answer = (s: MessageStore) =>
  (s.session('s')?.entries ?? [])
    .map((e) => (e.kind === 'tool_call' || e.kind === 'elicitation' || e.kind === 'subagent' || e.kind === 'compaction' ? '' : textOf(e.content)))
    .join('');

test('every record is on disk exactly once after any interleaving of appends, flushes and compactions', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(cmd, { maxLength: 14 }), { minLength: 1, maxLength: 6 }), async (steps) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'journal-prop-'));
      try {
        let { store, journal } = await StoreJournal.open(dir, 'j');
        journal.ingest(store, 'client->agent', req(1, AgentMethods.sessionNew, { cwd: '/ws', mcpServers: [] }));
        journal.ingest(store, 'agent->client', ok(1, { sessionId: 's' }));
        let expected = '';
        let n = 0;
        for (const step of steps) {
          const inFlight: Promise<void>[] = [];
          for (const c of step) {
            if (c.op === 'append') {
              for (let i = 0; i < c.n; i++) {
                const word = `<${n++}>`;
                expected += word;
                journal.ingest(store, 'agent->client', chunk('s', 'agent_message_chunk', word, 'm'));
              }
            } else if (c.op === 'flush') inFlight.push(journal.flush());
            else if (c.op === 'compact') inFlight.push(journal.compact(store));
            else if (c.kind === 'micro') for (let i = 0; i < 5; i++) await Promise.resolve();
            else if (c.kind === 'immediate') await new Promise((r) => setImmediate(r));
            else await fsp.stat(dir);
          }
          await Promise.all(inFlight);
          await journal.dispose();
          const back = await StoreJournal.open(dir, 'j');
          assert.deepEqual(back.diagnostics, []);
          assert.equal(answer(back.store), expected);
          ({ store, journal } = back);
        }
        await journal.dispose();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 50 },
  );
});
