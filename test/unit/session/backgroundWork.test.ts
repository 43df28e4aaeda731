// Background work: after the session/prompt response the agent may go on (a subagent still running, or a turn
// of its own on the parent session, as claude-agent-acp runs for a background agent). The recorded transcript
// drives a chat through an agent that replays it; time is a manual clock, so no test waits for the quiet period.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { ChatController } from '../../../src/node/chat/chatController';
import { BACKGROUND_MESSAGE, BACKGROUND_QUIET_MS, BackgroundWork } from '../../../src/node/chat/backgroundWork';
import { onAcpNotification, onAcpRequest, type AcpConnection } from '../../../src/node/transport/connection';
import { inProcessDemoAgent, chatOptions } from './harness';
import type { AgentLink } from '../../../src/node/acp/agentLink';
import { ManualClock } from '../helpers/manualClock';
import { until } from '../../helpers/until.mjs';

type Msg = { id?: number; method?: string; params?: { sessionId?: string; update?: { sessionUpdate?: string } }; result?: unknown };
const ROWS = readFileSync(new URL('../../fixtures/transcripts/claude-next-subagent-bg.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { dir: string; msg?: Msg });

const resultOf = (id: number) => ROWS.find((r) => r.dir === 'agent->client' && r.msg?.id === id && r.msg.method === undefined)!.msg!.result;
const indexOfResult = (id: number) => ROWS.findIndex((r) => r.dir === 'agent->client' && r.msg?.id === id && r.msg.method === undefined);
/** The session/update messages the agent sent between two rows of the transcript. */
const updatesBetween = (from: number, to: number) => ROWS.slice(from, to).flatMap((r) => (r.dir === 'agent->client' && r.msg?.method === 'session/update' ? [r.msg] : []));

const PROMPT_RESULT = indexOfResult(2);
const BEFORE = updatesBetween(0, PROMPT_RESULT);
const AFTER = updatesBetween(PROMPT_RESULT, ROWS.length);
const CHILD_IDLE = BEFORE.findIndex((m) => m.params?.update?.sessionUpdate === 'subagent_update' && JSON.stringify(m.params.update).includes('"idle"'));

/**
 * An agent that answers as the recording did: initialize and session/new with the recorded results; the first
 * prompt with the updates recorded before its response (`before`), then the response. What came after the
 * response is the test's to send (`send`), so it can look at the chat in between. Later prompts end at once.
 */
function replayAgent(before: readonly Msg[]) {
  let acp: AcpConnection | undefined;
  const prompts: unknown[] = [];
  const cancels: unknown[] = [];
  const send = (msgs: readonly Msg[]) => {
    for (const m of msgs) void acp!.connection.sendNotification('session/update', m.params);
  };
  const agent = inProcessDemoAgent((a) => {
    acp = a;
    onAcpRequest(a, 'initialize', z.unknown(), () => resultOf(0));
    onAcpRequest(a, 'session/new', z.unknown(), () => resultOf(1));
    onAcpRequest(a, 'session/prompt', z.unknown(), (p) => {
      prompts.push(p);
      if (prompts.length === 1) send(before);
      return prompts.length === 1 ? resultOf(2) : { stopReason: 'end_turn' };
    });
    onAcpNotification(a, 'session/cancel', z.unknown(), (p) => void cancels.push(p));
  });
  return { connect: agent.connect, send, prompts, cancels, link: () => agent.link };
}

async function chatWith(before: readonly Msg[]) {
  const clock = new ManualClock();
  const agent = replayAgent(before);
  const c = new ChatController(chatOptions({ connect: agent.connect, clock }));
  await c.start();
  return { c, clock, agent };
}

/** Every update sent so far was handled: a round trip through the agent (its answer comes after them). */
async function handled(c: ChatController, agent: { link: () => AgentLink | undefined }): Promise<void> {
  await agent
    .link()!
    .client.probe('session/set_mode', { sessionId: c.sessionId, modeId: 'x' })
    .catch(() => undefined);
}

const turnOf = (c: ChatController) => ({ turn: c.panelState().turn, message: c.panelState().message });

describe('background work in the chat (claude-next-subagent-bg)', () => {
  it("the agent's own turn after the response is shown as working in the background, and ends after the quiet period", async () => {
    const { c, clock, agent } = await chatWith(BEFORE);
    c.prompt('Use a background agent to read notes.txt');
    await until(() => c.turnState === 'idle' && agent.prompts.length === 1, 'the turn to end');
    agent.send(AFTER);
    await handled(c, agent);
    assert.deepEqual(turnOf(c), { turn: 'busy', message: BACKGROUND_MESSAGE });
    assert.ok(
      c.entries().some((e) => e.kind === 'agent_thought' && e.stats.lines.length > 0),
      'the background turn is in the transcript',
    );
    clock.advance(BACKGROUND_QUIET_MS - 1);
    assert.equal(c.turnState, 'busy');
    clock.advance(1);
    assert.deepEqual(turnOf(c), { turn: 'idle', message: null });
    await c.whenIdle();
    // Nothing about it is called late or unknown.
    assert.deepEqual(c.panelState().notices, []);
    assert.deepEqual(
      c.store.diagnostics().filter((d) => d.severity === 'error'),
      [],
    );
    c.dispose();
  });

  it('a subagent still running after the response keeps the chat working past the quiet period, until it is idle', async () => {
    const before = BEFORE.filter((_, i) => i !== CHILD_IDLE);
    const { c, clock, agent } = await chatWith(before);
    c.prompt('Use a background agent to read notes.txt');
    await until(() => c.turnState === 'busy' && c.panelState().message === BACKGROUND_MESSAGE && agent.prompts.length === 1, 'the turn to end in background work');
    clock.advance(60_000);
    assert.deepEqual(turnOf(c), { turn: 'busy', message: BACKGROUND_MESSAGE }, 'the running subagent holds it');
    agent.send([BEFORE[CHILD_IDLE]!]);
    await handled(c, agent);
    assert.equal(c.turnState, 'busy', 'the idle report is an update too: the quiet period starts from it');
    clock.advance(BACKGROUND_QUIET_MS);
    assert.deepEqual(turnOf(c), { turn: 'idle', message: null });
    c.dispose();
  });

  it('a prompt sent while the agent works in the background goes out at once; Stop in the background sends session/cancel', async () => {
    const { c, clock, agent } = await chatWith(BEFORE);
    c.prompt('first');
    await until(() => c.turnState === 'idle' && agent.prompts.length === 1, 'the first turn to end');
    agent.send(AFTER);
    await handled(c, agent);
    assert.equal(c.turnState, 'busy');
    c.prompt('second');
    await until(() => agent.prompts.length === 2, 'the second prompt on the wire');
    assert.deepEqual(c.panelState().queuedPrompts, [], 'not queued behind the background work');
    await until(() => c.turnState === 'idle', 'the second turn to end');
    // Background work again (an update of the agent's own), then Stop.
    agent.send(AFTER.slice(1, 3));
    await handled(c, agent);
    assert.equal(c.turnState, 'busy');
    c.cancel();
    assert.equal(c.turnState, 'idle');
    await until(() => agent.cancels.length === 1, 'session/cancel');
    clock.advance(BACKGROUND_QUIET_MS);
    assert.equal(c.turnState, 'idle');
    c.dispose();
  });
});

describe('no background work without subagents', () => {
  it("an agent that never started a subagent and sends its turn's last chunks after the response just ends its turn", async () => {
    // The recording without its subagent: its parent's updates only (claude-next sends an answer's last chunks after the response, too).
    const announces = (m: Msg) => ['subagent_update', 'session_message'].includes(m.params?.update?.sessionUpdate ?? '');
    const parentOnly = (msgs: readonly Msg[]) => msgs.filter((m) => m.params?.sessionId === BEFORE[0]?.params?.sessionId && !announces(m));
    const { c, agent } = await chatWith(parentOnly(BEFORE));
    c.prompt('Read notes.txt');
    await until(() => c.turnState === 'idle' && agent.prompts.length === 1, 'the turn to end');
    agent.send(parentOnly(AFTER));
    await handled(c, agent);
    assert.deepEqual(turnOf(c), { turn: 'idle', message: null });
    assert.ok(c.entries().some((e) => e.kind === 'agent_message' && e.stats.lines.length > 0));
    c.dispose();
  });
});

describe('BackgroundWork', () => {
  const make = () => {
    const clock = new ManualClock();
    let busy = 0;
    let changes = 0;
    const w = new BackgroundWork(
      clock,
      () => busy,
      () => changes++,
    );
    return { clock, w, setBusy: (n: number) => (busy = n), changes: () => changes };
  };

  it('updates that only describe the session do not start it, but extend it once on', () => {
    const t = make();
    t.w.update('usage_update');
    t.w.update('available_commands_update');
    assert.equal(t.w.active, false);
    t.w.update('agent_message_chunk');
    assert.equal(t.w.active, true);
    t.clock.advance(2_000);
    t.w.update('usage_update');
    t.clock.advance(2_999);
    assert.equal(t.w.active, true);
    t.clock.advance(1);
    assert.equal(t.w.active, false);
    assert.equal(t.changes(), 2);
    assert.equal(t.clock.pending, 0, 'no timer left at rest');
  });

  it('nothing counts while a prompt of ours is pending; busy subagents carry on after it', () => {
    const t = make();
    t.w.setForeground(true);
    t.w.update('agent_message_chunk');
    assert.equal(t.w.active, false);
    t.setBusy(1);
    t.w.setForeground(false);
    assert.equal(t.w.active, true);
    t.clock.advance(100_000);
    assert.equal(t.w.active, true);
    assert.equal(t.clock.pending, 0, 'no timer while a subagent is busy');
    t.setBusy(0);
    t.w.update('subagent_update');
    t.clock.advance(BACKGROUND_QUIET_MS);
    assert.equal(t.w.active, false);
  });
});
