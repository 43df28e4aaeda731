// The subagent card's DOM-free parts: the one shared clock (a timer only while a card runs), and the
// card's state as shown and read aloud.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { ElapsedClock } from '../../../webview/elapsedClock';
import { entryLabel, subagentStateLabel } from '../../../webview/entryModel';
import type { ViewSubagent } from '../../../src/common/webview/viewEntry';

test('ElapsedClock: one timer for any number of cards, none once no card wants ticks', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  let now = 0;
  const clock = new ElapsedClock(() => now);
  const ticks: number[][] = [[], [], []];
  let running = [true, true, true];
  const cards = ticks.map((seen, i) => ({ tick: (at: number) => (seen.push(at), running[i]!) }));
  const setInterval = mock.method(globalThis, 'setInterval');
  assert.equal(clock.ticking, false);
  for (const c of cards) clock.add(c);
  clock.add(cards[0]!); // twice: still one subscription
  assert.equal(clock.ticking, true);
  assert.equal(setInterval.mock.callCount(), 1, 'one timer');
  now = 1000;
  t.mock.timers.tick(1000);
  assert.deepEqual(ticks, [[1000], [1000], [1000]]);
  // A card that stopped running says so on its next tick and gets no more.
  running = [false, true, true];
  now = 2000;
  t.mock.timers.tick(1000);
  now = 3000;
  t.mock.timers.tick(1000);
  assert.deepEqual(
    ticks.map((s) => s.length),
    [2, 3, 3],
  );
  clock.remove(cards[1]!);
  clock.remove(cards[2]!);
  assert.equal(clock.ticking, false, 'the last one gone: no timer');
  now = 4000;
  t.mock.timers.tick(5000);
  assert.deepEqual(
    ticks.map((s) => s.length),
    [2, 3, 3],
  );
  setInterval.mock.restore();
});

const card = (over: Partial<ViewSubagent>): ViewSubagent => ({
  kind: 'subagent',
  key: 'k',
  childSessionId: 'a9fd9da01c3852c64',
  title: 'Read notes.txt',
  description: 'general-purpose',
  canCancel: true,
  state: 'running',
  stopReason: null,
  stateSince: 10_000,
  cwd: null,
  provenance: 'live',
  announcedAt: 4000,
  ...over,
});

test("subagent state labels and the card's accessible name", () => {
  assert.deepEqual(
    [
      ['running', null],
      ['idle', null],
      ['idle', 'end_turn'],
      ['idle', 'max_tokens'],
      ['requires_action', null],
      ['unknown', null],
      [null, null],
      ['paused_by_user', null],
    ].map(([s, r]) => subagentStateLabel(s ?? null, r ?? null)),
    ['running', 'done', 'done', 'stopped (max tokens)', 'needs you', 'state unknown', 'state not reported', 'paused_by_user'],
  );
  assert.equal(entryLabel(card({}), 'Claude'), 'Subagent: Read notes.txt, running', 'no seconds in the name of a running card');
  assert.equal(entryLabel(card({ state: 'idle', stopReason: 'end_turn' }), 'Claude'), 'Subagent: Read notes.txt, done, worked for 6 s');
  assert.equal(entryLabel(card({ state: 'idle', title: null, provenance: 'replay' }), 'Claude'), 'Subagent, done');
});
