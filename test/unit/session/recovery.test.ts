// A chat recovering by itself, against the demo agent in-process told to misbehave (ACP_DEMO_FAULT's
// modes): a crash mid-turn or mid-permission is restarted and reattached, a prompt the agent never took is
// offered back (never resent), a silent turn gets a stall notice, an ignored cancel is given up. Time
// (backoff, stall, cancel bound) runs on a manual clock; the tests wait for facts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ChatController } from '../../../src/node/chat/chatController';
import { parseSettings } from '../../../src/common/config/settings';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import type { DemoFault } from '../../../src/node/demoAgent/faults';
import { inProcessDemoAgent, chatOptions } from './harness';
import { ManualClock } from '../helpers/manualClock';
import { until } from '../../helpers/until.mjs';

/** A chat whose first agent process shows `fault`; the restarted ones behave. */
function faultyChat(fault: DemoFault, raw: Record<string, unknown> = {}, lateAfterCancelMs?: number) {
  const clock = new ManualClock();
  const late = lateAfterCancelMs === undefined ? {} : { lateAfterCancelMs };
  const agent = inProcessDemoAgent((acp) => new DemoAgent(acp, { delayMs: 0, ...(agent.connections === 1 ? { fault, ...late } : {}), crash: () => agent.crash() }));
  const settings = parseSettings((k) => raw[k]).settings;
  const session = new ChatController(
    chatOptions({
      connect: agent.connect,
      settings: () => settings,
      clock,
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) => ({
          outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: p.toolCall.title ?? '', options: p.options }),
        }),
      }),
    }),
  );
  const notice = (key: string) => session.panelState().notices.find((n) => n.key === key);
  return { clock, agent, session, notice };
}

const userTexts = (session: ChatController) => session.entries().flatMap((e) => (e.kind === 'user_message' ? [e.content.map((b) => ('text' in b ? b.text : '')).join('')] : []));

describe('recovery', () => {
  it('crash mid-turn: restarted and the same session reattached; the turn is shown interrupted, not resumed', async () => {
    const { clock, agent, session, notice } = faultyChat('crash-mid-turn');
    await session.start();
    const sid = session.sessionId;
    session.prompt('hello');
    await until(() => session.turnState === 'exited', 'the crash');
    assert.match(session.panelState().message ?? '', /Restarting it \(attempt 1 of 3\)/);
    assert.match(notice('recovery')?.description ?? '', /interrupted; it is not resumed/);
    clock.advance(0);
    await until(() => session.turnState === 'idle' && agent.connections === 2, 'the restart');
    assert.equal(session.sessionId, sid, 'the same session');
    assert.deepEqual(userTexts(session), ['hello'], 'nothing resent');
    assert.ok(notice('recovery'), 'the notice stays after the restart');
    assert.deepEqual(
      session.panelState().notices.filter((n) => /prompt failed/.test(n.title)),
      [],
      'the exit explains it, not a failed prompt',
    );
    session.dispose();
  });

  it('crash mid-permission: the card does not stay answerable, and the chat comes back', async () => {
    const { clock, agent, session } = faultyChat('crash-mid-permission');
    await session.start();
    session.prompt('please edit the file');
    await until(() => session.turnState === 'exited', 'the crash');
    assert.deepEqual(session.panelState().permissions, []);
    clock.advance(0);
    await until(() => session.turnState === 'idle' && agent.connections === 2, 'the restart');
    assert.deepEqual(session.panelState().permissions, []);
    const expired = session.panelState().notices.filter((n) => /^Permission request expired/.test(n.title));
    assert.equal(expired.length, 1, 'the card the crash left is marked expired');
    const card = session.entries().find((e) => e.kind === 'tool_call' && e.key === expired[0]?.entryKey);
    assert.ok(card, 'on the tool call the permission was about');
    session.dispose();
  });

  it('a prompt the agent never took is offered back with Resend and Edit, and sent again only on Resend', async () => {
    const { clock, agent, session, notice } = faultyChat('crash-on-prompt');
    await session.start();
    session.prompt('fix the bug');
    await until(() => session.turnState === 'exited', 'the crash');
    assert.equal(notice('recovery')?.description?.includes('interrupted'), false, 'not called interrupted before the replay decided');
    clock.advance(0);
    const offer = await until(() => notice('undelivered'), 'the offer');
    assert.match(offer.title, /may not have been delivered/);
    assert.deepEqual(
      offer.actions?.map((a) => a.id),
      ['resend', 'edit'],
    );
    assert.equal(offer.fill, 'fix the bug');
    assert.equal(agent.connections, 2);
    await session.whenIdle();
    assert.deepEqual(userTexts(session), ['fix the bug'], 'not resent by itself');
    // The offer is drawn on the prompt's own entry, which it marks as not delivered.
    const entry = session.entries().find((e) => e.kind === 'user_message');
    assert.equal(offer.entryKey, entry?.key);
    assert.equal(offer.description, null, 'the entry shows the text');
    session.noticeAction('resend');
    assert.equal(notice('undelivered'), undefined);
    await until(() => session.entries().some((e) => e.kind === 'agent_message'), 'the resent turn to be answered');
    await session.whenIdle();
    assert.deepEqual(userTexts(session), ['fix the bug'], 'the resent prompt is the entry already shown, once');
    assert.equal(session.entries()[0]?.key, entry?.key);
    session.dispose();
  });

  it('with restartOnCrash off, the chat waits for the user', async () => {
    const { clock, agent, session } = faultyChat('crash-mid-turn', { restartOnCrash: false });
    await session.start();
    session.prompt('hello');
    await until(() => session.turnState === 'exited', 'the crash');
    assert.match(session.panelState().message ?? '', /Restart the agent to continue/);
    clock.advance(1_000_000);
    assert.equal(agent.connections, 1);
    session.dispose();
  });

  it('a silent turn gets a stall notice with Keep waiting, Cancel and Restart; Cancel ends it', async () => {
    const { clock, session, notice } = faultyChat('silent');
    await session.start();
    session.prompt('hello');
    // The title is the last thing the silent agent says.
    await until(() => session.current()?.title === 'hello', 'the turn to go silent');
    clock.advance(89_999);
    assert.equal(notice('stall'), undefined);
    clock.advance(1);
    const stall = await until(() => notice('stall'), 'the stall notice');
    assert.deepEqual(
      stall.actions?.map((a) => a.id),
      ['keepWaiting', 'cancel', 'restart'],
    );
    session.noticeAction('keepWaiting');
    assert.equal(notice('stall'), undefined);
    clock.advance(90_000);
    await until(() => notice('stall'), 'the next stall notice');
    session.noticeAction('cancel');
    await session.whenIdle();
    assert.equal(session.turnState, 'idle');
    assert.equal(notice('stall'), undefined);
    assert.equal(clock.pending, 0, 'no timer runs at rest');
    session.dispose();
  });

  it('a pending permission is no stall', async () => {
    const { clock, session, notice } = faultyChat('silent');
    await session.start();
    void session.broker.request(session.sessionId ?? '', async (_signal, askUser) => ({
      outcome: await askUser({ toolCallId: 't', toolCallKey: null, title: 'x', options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] }),
    }));
    session.prompt('hello');
    await until(() => session.current()?.title === 'hello', 'the turn to go silent');
    clock.advance(1_000_000);
    assert.equal(notice('stall'), undefined);
    session.dispose();
  });

  it('a cancel the agent ignores is given up after the bound: the turn shows cancelled and the chat goes on', async () => {
    const { clock, session, notice } = faultyChat('ignore-cancel');
    await session.start();
    session.prompt('hello');
    await until(() => session.current()?.title === 'hello', 'the turn to go silent');
    session.cancel();
    assert.equal(session.turnState, 'cancelling');
    clock.advance(10_000);
    await until(() => session.turnState === 'idle', 'the turn given up');
    assert.match(notice('recovery')?.title ?? '', /did not confirm the cancel/);
    session.dispose();
  });

  it('what an agent that ignored the cancel sends after the turn was given up is kept, and marked late', async () => {
    const { clock, session, notice } = faultyChat('ignore-cancel', {}, 20);
    await session.start();
    session.prompt('hello');
    await until(() => session.current()?.title === 'hello', 'the turn to go silent');
    const before = session.entries().length;
    session.cancel();
    // Given up before the agent even read the cancel; it goes on with the turn 20 ms after reading it.
    clock.advance(10_000);
    assert.equal(session.turnState, 'idle');
    const late = await until(() => notice('late'), 'the late marker');
    const lateEntries = session.entries().slice(before);
    assert.ok(lateEntries.length > 0, 'the late updates are kept');
    assert.equal(late.entryKey, lateEntries[0]?.key, 'the marker is on the first late entry');
    assert.match(late.title, /after the turn was shown as cancelled/);
    assert.ok(
      session.store.session(session.sessionId ?? '')?.entries.some((e) => e.key === late.entryKey),
      'kept in the store',
    );
    // One marker: what follows the first late entry is late too.
    await until(() => session.entries().some((e) => e.kind === 'agent_message'), 'the late answer');
    assert.equal(session.panelState().notices.filter((n) => n.key === 'late').length, 1);
    assert.equal(notice('late')?.entryKey, late.entryKey);
    session.dispose();
  });
});
