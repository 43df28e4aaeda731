import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy } from '../../../src/common/recovery/restartPolicy';
import { ManualClock } from '../helpers/manualClock';

const limits = { maxFailures: 3, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 3_000 };

describe('restart policy', () => {
  it('restarts at once, then backs off, then gives up after maxFailures crashes in the window', () => {
    const clock = new ManualClock();
    const p = new RestartPolicy(clock, limits);
    assert.deepEqual(p.crashed(), { kind: 'restart', attempt: 1, delayMs: 0 });
    clock.advance(1_000);
    assert.deepEqual(p.crashed(), { kind: 'restart', attempt: 2, delayMs: 1_000 });
    clock.advance(1_000);
    assert.deepEqual(p.crashed(), { kind: 'restart', attempt: 3, delayMs: 2_000 });
    clock.advance(1_000);
    assert.deepEqual(p.crashed(), { kind: 'giveUp', failures: 4, windowMs: 60_000 });
  });

  it('caps the delay', () => {
    const p = new RestartPolicy(new ManualClock(), { ...limits, maxFailures: 10 });
    const delays = Array.from({ length: 6 }, () => p.crashed()).map((d) => (d.kind === 'restart' ? d.delayMs : -1));
    assert.deepEqual(delays, [0, 1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it('forgets crashes older than the window, and all of them on reset', () => {
    const clock = new ManualClock();
    const p = new RestartPolicy(clock, limits);
    p.crashed();
    p.crashed();
    p.crashed();
    clock.advance(60_000);
    assert.deepEqual(p.crashed(), { kind: 'restart', attempt: 1, delayMs: 0 });
    p.crashed();
    p.crashed();
    p.reset();
    assert.equal(p.crashed().kind, 'restart');
  });
});
