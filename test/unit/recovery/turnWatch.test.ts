import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnWatch } from '../../../src/common/recovery/turnWatch';
import { ManualClock } from '../helpers/manualClock';

function setup(stallMs = 90_000, cancelBoundMs = 10_000) {
  const clock = new ManualClock();
  const events: string[] = [];
  let stall = stallMs;
  const watch = new TurnWatch(
    clock,
    () => stall,
    {
      stalled: (ms) => events.push(`stalled ${ms}`),
      resumed: () => events.push('resumed'),
      cancelUnacknowledged: () => events.push('cancel unacknowledged'),
    },
    cancelBoundMs,
  );
  return { clock, events, watch, setStall: (ms: number) => (stall = ms) };
}

describe('turn watch', () => {
  it('reports a stall after the stall time without traffic, once, and its end when traffic resumes', () => {
    const { clock, events, watch } = setup();
    watch.turnStarted();
    clock.advance(89_999);
    assert.deepEqual(events, []);
    clock.advance(1);
    assert.deepEqual(events, ['stalled 90000']);
    clock.advance(500_000);
    assert.deepEqual(events, ['stalled 90000'], 'told once');
    watch.traffic();
    assert.deepEqual(events, ['stalled 90000', 'resumed']);
    assert.equal(watch.stalled, false);
  });

  it('counts silence from the last traffic, with one timer however much traffic comes', () => {
    const { clock, events, watch } = setup();
    watch.turnStarted();
    for (let i = 0; i < 100; i++) {
      clock.advance(800);
      watch.traffic();
    }
    assert.equal(clock.pending, 1);
    clock.advance(89_999);
    assert.deepEqual(events, []);
    clock.advance(1);
    assert.deepEqual(events, ['stalled 90000']);
  });

  it('is no stall while the user is asked (permission or question), and counts again from the answer', () => {
    const { clock, events, watch } = setup();
    watch.turnStarted();
    clock.advance(10_000);
    watch.waiting(true);
    assert.equal(clock.pending, 0);
    clock.advance(1_000_000);
    watch.waiting(false);
    clock.advance(89_999);
    assert.deepEqual(events, []);
    clock.advance(1);
    assert.deepEqual(events, ['stalled 90000']);
  });

  it('keep waiting starts a new stall period', () => {
    const { clock, events, watch } = setup();
    watch.turnStarted();
    clock.advance(90_000);
    watch.keepWaiting();
    assert.equal(watch.stalled, false);
    clock.advance(90_000);
    assert.deepEqual(events, ['stalled 90000', 'stalled 90000']);
  });

  it('no timer runs when the turn ended, or when the stall notice is off (0)', () => {
    const { clock, events, watch, setStall } = setup();
    watch.turnStarted();
    watch.turnEnded();
    assert.equal(clock.pending, 0);
    setStall(0);
    watch.turnStarted();
    assert.equal(clock.pending, 0);
    clock.advance(1_000_000);
    assert.deepEqual(events, []);
  });

  it('gives up a cancel the agent does not acknowledge within the bound, and not one it does', () => {
    const { clock, events, watch } = setup(90_000, 10_000);
    watch.turnStarted();
    watch.cancelRequested();
    clock.advance(9_999);
    watch.traffic(); // late updates are no acknowledgement
    clock.advance(1);
    assert.deepEqual(events, ['cancel unacknowledged']);

    events.length = 0;
    watch.turnStarted();
    watch.cancelRequested();
    clock.advance(5_000);
    watch.turnEnded();
    clock.advance(100_000);
    assert.deepEqual(events, []);
    assert.equal(clock.pending, 0);
  });
});
