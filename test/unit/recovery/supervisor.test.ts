import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectionSupervisor, type RecoveryNoticeKey } from '../../../src/common/recovery/supervisor';
import type { Notice } from '../../../src/common/notices';
import { ManualClock } from '../helpers/manualClock';

const limits = { maxFailures: 2, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 4_000 };

function setup(restartOnCrash = true) {
  const clock = new ManualClock();
  const notices = new Map<RecoveryNoticeKey, Notice>();
  const log: string[] = [];
  const sup = new ConnectionSupervisor(
    {
      clock,
      agentName: 'Agent',
      settings: () => ({ restartOnCrash, stallNoticeSeconds: 90 }),
      reconnect: () => log.push('reconnect'),
      notice: (key, n) => (n ? notices.set(key, n) : notices.delete(key)),
      abandonTurn: () => log.push('abandon'),
    },
    limits,
    10_000,
  );
  return { clock, notices, log, sup };
}

const update = (text: string) => ({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } } } });

describe('connection supervisor', () => {
  it('restarts a crashed agent (at once, then after the backoff) and says the running turn was interrupted', () => {
    const { clock, notices, log, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    sup.traffic(update('hi'));
    assert.deepEqual(sup.agentExited('it crashed'), { kind: 'restart', attempt: 1, delayMs: 0, maxAttempts: 2 });
    assert.match(notices.get('recovery')?.title ?? '', /stopped unexpectedly and was restarted \(attempt 1 of 2\)/);
    assert.match(notices.get('recovery')?.description ?? '', /it crashed\. The running turn was interrupted/);
    assert.equal(sup.wantsReplay(), false, 'the prompt was taken: nothing to decide');
    clock.advance(0);
    assert.deepEqual(log, ['reconnect']);
    assert.equal(sup.agentExited('it crashed').kind, 'restart');
    clock.advance(999);
    assert.deepEqual(log, ['reconnect']);
    clock.advance(1);
    assert.deepEqual(log, ['reconnect', 'reconnect']);
  });

  it('gives up after too many crashes in the window, with a Restart action; a manual restart starts afresh', () => {
    const { clock, notices, log, sup } = setup();
    sup.agentExited('it crashed');
    sup.agentExited('it crashed');
    const d = sup.agentExited('it crashed');
    assert.equal(d.kind, 'giveUp');
    clock.advance(100_000);
    assert.equal(log.length, 0, 'the pending restart was dropped when it gave up');
    assert.deepEqual(
      notices.get('recovery')?.actions?.map((a) => a.id),
      ['restart'],
    );
    sup.manualRestart();
    assert.equal(notices.has('recovery'), false);
    assert.equal(sup.agentExited('it crashed').kind, 'restart');
  });

  it('the crash banner goes once a later turn ends: it does not stay through good turns (issue 38, item 8)', () => {
    const { clock, notices, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    sup.traffic(update('hi'));
    sup.agentExited('it crashed');
    clock.advance(0);
    assert.ok(notices.has('recovery'));
    sup.turnStarted({ text: 'again' });
    assert.ok(notices.has('recovery'), 'still there while the next turn runs');
    sup.turnEnded();
    assert.equal(notices.has('recovery'), false);
    // And it can be dismissed at once.
    sup.agentExited('it crashed');
    assert.deepEqual(
      notices.get('recovery')?.actions?.map((a) => a.id),
      ['dismiss'],
    );
    sup.dismiss();
    assert.equal(notices.has('recovery'), false);
  });

  it('does nothing by itself when restartOnCrash is off', () => {
    const { clock, log, notices, sup } = setup(false);
    sup.turnStarted({ text: 'hi' });
    sup.traffic(update('hi'));
    assert.deepEqual(sup.agentExited('it crashed'), { kind: 'off' });
    assert.match(notices.get('recovery')?.title ?? '', /interrupted/);
    clock.advance(1_000_000);
    assert.deepEqual(log, []);
  });

  it('an uncertain prompt is decided by the replay: landed (shown once, no offer) or not delivered (Resend/Edit, never resent)', () => {
    const landed = setup();
    landed.sup.turnStarted({ text: 'fix the bug' });
    landed.sup.agentExited('it crashed');
    assert.equal(landed.sup.wantsReplay(), true);
    landed.sup.reattaching('s');
    landed.sup.traffic(update('fix the bug'));
    landed.sup.reattached(true);
    assert.equal(landed.notices.has('undelivered'), false);
    assert.match(landed.notices.get('recovery')?.title ?? '', /reached the agent/);
    assert.equal(landed.sup.takeUndelivered(), null);

    const lost = setup();
    lost.sup.turnStarted({ text: 'fix the bug' });
    lost.sup.agentExited('it crashed');
    lost.sup.reattaching('s');
    lost.sup.traffic(update('an older prompt'));
    lost.sup.reattached(true);
    const n = lost.notices.get('undelivered');
    assert.match(n?.title ?? '', /not delivered/);
    assert.deepEqual(
      n?.actions?.map((a) => a.id),
      ['resend', 'edit'],
    );
    assert.equal(n?.fill, 'fix the bug');
    assert.deepEqual(lost.log, [], 'not resent');
    assert.deepEqual(lost.sup.takeUndelivered(), { text: 'fix the bug' });
    assert.equal(lost.notices.has('undelivered'), false);
    assert.equal(lost.sup.takeUndelivered(), null, 'offered once');
  });

  it('an uncertain prompt is not called interrupted before the replay decided (state updates prove nothing)', () => {
    const { notices, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    sup.traffic({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'available_commands_update', availableCommands: [] } } });
    assert.equal(sup.wantsReplay(), true);
    sup.agentExited('it crashed');
    assert.doesNotMatch(notices.get('recovery')?.description ?? '', /interrupted/);
  });

  it('without a replay (resume only) the prompt may not have been delivered', () => {
    const { notices, sup } = setup();
    sup.turnStarted({ text: 'hello' });
    sup.agentExited('it crashed');
    sup.reattaching('s');
    sup.reattached(false);
    assert.match(notices.get('undelivered')?.title ?? '', /may not have been delivered/);
  });

  it('a stall shows a notice with Keep waiting, Cancel and Restart, gone when traffic resumes; an ignored cancel abandons the turn', () => {
    const { clock, notices, log, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    clock.advance(90_000);
    assert.deepEqual(
      notices.get('stall')?.actions?.map((a) => a.id),
      ['keepWaiting', 'cancel', 'restart'],
    );
    sup.traffic({});
    assert.equal(notices.has('stall'), false);
    clock.advance(90_000);
    assert.equal(notices.has('stall'), true);
    sup.cancelRequested();
    clock.advance(10_000);
    assert.deepEqual(log, ['abandon']);
    assert.equal(notices.has('stall'), false);
    assert.match(notices.get('recovery')?.title ?? '', /did not confirm the cancel/);
    assert.equal(clock.pending, 0, 'no timer left running');
  });

  it('Restart on a stalled turn stops watching it, and keeps its uncertain prompt for the reattach', () => {
    const { clock, notices, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    clock.advance(90_000);
    sup.manualRestart();
    assert.equal(notices.has('stall'), false);
    assert.equal(clock.pending, 0);
    assert.equal(sup.wantsReplay(), true);
  });

  it('after a turn given up, the first entry the agent still sends for it is marked late, once; a new turn ends that', () => {
    const { clock, notices, sup } = setup();
    sup.turnStarted({ text: 'hi' });
    sup.stored(['k1']);
    assert.equal(notices.has('late'), false, 'a running turn is not late');
    sup.cancelRequested();
    clock.advance(10_000);
    sup.stored([]);
    assert.equal(notices.has('late'), false);
    sup.stored(['k2', 'k3']);
    assert.equal(notices.get('late')?.entryKey, 'k2');
    sup.stored(['k4']);
    assert.equal(notices.get('late')?.entryKey, 'k2', 'one marker, on the first late entry');
    sup.cancelRequested();
    sup.turnStarted({ text: 'next' });
    sup.turnEnded();
    sup.stored(['k5']);
    assert.equal(notices.get('late')?.entryKey, 'k2', 'the next turn is not late');
  });
});
