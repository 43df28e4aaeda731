// Browser checks of subagents in the panel: the delegation card (title, description, state badge with
// its time, one shared timer), the task and result drawn in the card and nowhere else, a message with no
// card as a row of its own, and a legacy agent's child tool calls nested under its Agent call (with
// permissions and search working on the nested card). Entries are the recorded Claude transcripts reduced
// by the store, as the panel of each session gets them. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { panel, snapshot, patch } from './fixtures.mjs';
import { assertClean, axeRun } from './a11y.mjs';
import { root } from './server.mjs';
import { recordedSessions } from './recorded.mjs';

const shots = path.join(root, 'test-results');

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
/** Counts the page's live intervals (the panel's only one is the subagent clock's). */
const countIntervals = (page) =>
  page.addInitScript(() => {
    const live = new Set();
    const set = window.setInterval;
    const clear = window.clearInterval;
    window.setInterval = function (...args) {
      const id = set.apply(this, args);
      live.add(id);
      return id;
    };
    window.clearInterval = function (id) {
      live.delete(id);
      return clear.call(this, id);
    };
    window.__liveIntervals = () => live.size;
  });
/** A page whose clock only the test moves (Date, timers), standing at `time`, with its intervals counted. */
const clocked = (time) => async (page) => {
  // Installed a minute early: an installed clock runs until paused, and cannot be paused in its past.
  await page.clock.install({ time: time - 60_000 });
  await page.clock.pauseAt(time);
  await countIntervals(page);
};
const liveIntervals = (page) => page.evaluate(() => window.__liveIntervals());

/** The card of `child` as the store would hold it, in the given state since `since` (announced at `announced`). */
function cardFrom(card, over, since, announced = since) {
  return { ...card, ...over, stateSince: since, stats: { ...card.stats, firstSeen: announced, lastSeen: since } };
}

export function register(test) {
  test('subagents: the parent shows one card holding the task (folded) and the result; the messages have no rows of their own', async ({ open }) => {
    const [parent] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const [prompt, reply] = parent.entries.filter((e) => e.kind === 'session_message');
    const { page, send, flush, errors } = await open({ beforeLoad: countIntervals });
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId })));
    await flush();
    const el = page.locator(`[data-key="${card.key}"][data-kind="subagent"]`);
    assert.equal(await el.getAttribute('role'), 'article');
    assert.match(await el.getAttribute('aria-label'), /^Subagent: Read notes\.txt, done/);
    assert.equal(await el.locator('.subagent-title').innerText(), 'Read notes.txt');
    assert.equal(await el.locator('.subagent-description').innerText(), 'general-purpose');
    assert.match(await el.locator('.subagent-state').innerText(), /^done/);
    assert.equal(await el.locator('.subagent-state .codicon-pass').count(), 1);
    // The task, folded; the result, in markdown, without Claude's bookkeeping line.
    const task = el.locator('details.subagent-task');
    assert.equal(await task.getAttribute('open'), null);
    assert.equal(await task.locator('summary').innerText(), 'Task');
    const result = el.getByRole('group', { name: 'Result' });
    assert.match(await result.innerText(), /Report: notes\.txt has one line, “hello”\. ✅/);
    assert.match(await result.locator('.subagent-tools-used').innerText(), /Tools used: Read/);
    assert.doesNotMatch(await page.locator('.transcript').innerText(), /tools-used-before-summary/);
    // Drawn once: the messages' own entries show nothing, and the task's text is nowhere else.
    for (const m of [prompt, reply]) assert.equal(await page.locator(`[data-key="${m.key}"]`).isHidden(), true, m.messageId);
    await task.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await task.getAttribute('open'), '', 'the task opens from the keyboard');
    assert.equal((await page.locator('.transcript').innerText()).split('(subagent task)').length - 1, 1, 'the task is shown once');
    // Search finds the task once, where it is drawn, and counts each match once.
    await page.keyboard.press('Control+f');
    await page.locator('input[aria-label="Search in conversation"]').fill('subagent task');
    assert.equal(await page.locator('.search-count').innerText(), '1 of 1');
    assert.equal(await liveIntervals(page), 0, 'no card runs: no timer');
    assertClean(await axeRun(page), 'subagent card');
    assert.deepEqual(errors, []);
  });

  test('subagents: arriving live, in the recorded order: the card takes its task and then its result as they come', async ({ open }) => {
    const [parent] = recordedSessions('claude-next-subagent.jsonl');
    const at = (kind) => parent.entries.findIndex((e) => e.kind === kind);
    const card = parent.entries[at('subagent')];
    const [prompt, reply] = parent.entries.filter((e) => e.kind === 'session_message');
    const { page, send, flush, errors } = await open({ beforeLoad: clocked(T0 + 2000) });
    const before = parent.entries.slice(0, at('subagent'));
    await send(snapshot(before, panel({ sessionId: parent.sessionId, turn: 'busy' })));
    await send(patch({ op: 'insert', index: before.length, entry: cardFrom(card, { state: 'running', stopReason: null }, T0) }));
    await send(patch({ op: 'insert', index: before.length + 1, entry: prompt }));
    await flush();
    const el = page.locator(`[data-key="${card.key}"]`);
    assert.equal(await el.locator('.subagent-state').innerText(), 'running · 2 s');
    assert.equal(await el.locator('details.subagent-task').count(), 1);
    assert.equal(await el.getByRole('group', { name: 'Result' }).count(), 0);
    assert.equal(await page.locator(`[data-key="${prompt.key}"]`).isHidden(), true);
    await send(patch({ op: 'replace', entry: cardFrom(card, { state: 'idle', stopReason: 'end_turn' }, T0 + 7000, T0) }, { op: 'insert', index: before.length + 2, entry: reply }));
    await flush();
    assert.equal(await el.locator('.subagent-state').innerText(), 'done · 7 s');
    assert.match(await el.getByRole('group', { name: 'Result' }).innerText(), /Report: notes\.txt has one line/);
    assert.equal(await page.locator(`[data-key="${reply.key}"]`).isHidden(), true);
    // A streamed reply (session_message_chunk) grows in the card.
    await send(patch({ op: 'appendText', key: reply.key, text: ' **Nothing else.**' }));
    await flush();
    assert.equal(await el.locator('.subagent-result strong').innerText(), 'Nothing else.');
    assert.equal(await liveIntervals(page), 0);
    assert.deepEqual(errors, []);
  });

  test('subagents: "Open the subagent\'s transcript" is offered only by a host that can (canOpenSubagents), and posts openSubagent', async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const { page, send, flush, posted, clearPosted } = await open();
    const button = page.locator(`[data-key="${card.key}"]`).getByRole('button', { name: "Open the subagent's transcript" });
    await send(snapshot([card], panel({ sessionId: parent.sessionId })));
    await flush();
    assert.equal(await button.count(), 0, 'no button that would do nothing');
    await send(snapshot([card], panel({ sessionId: parent.sessionId, canOpenSubagents: true })));
    await flush();
    await clearPosted();
    await button.click();
    assert.deepEqual(await posted(), [{ type: 'openSubagent', childSessionId: child.sessionId }]);
  });

  test("subagents: a subagent's permission request is shown in the parent's panel, says which subagent needs you, and is answered there; Stop is offered on a running card that can be cancelled", async ({
    open,
  }) => {
    const [parent, child] = recordedSessions('claude-next-subagent-permission.jsonl');
    const done = parent.entries.find((e) => e.kind === 'subagent');
    // The same card while the child still runs, as the panel had it when the request came.
    const running = { ...done, state: 'running', stopReason: null };
    const childTool = child.entries.find((e) => e.kind === 'tool_call' && e.toolKind === 'execute');
    // The child's tool call id is also given to a parent card: the request must not land there.
    const decoy = { ...childTool, key: 'decoy', title: 'Parent card with the same id' };
    const perm = {
      requestId: 'p-sub',
      toolCallKey: childTool.key,
      toolCallId: childTool.toolCallId,
      title: childTool.title,
      fromSubagent: running.title,
      options: [
        { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    };
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([...parent.entries.slice(0, parent.entries.indexOf(done)), running, decoy], panel({ sessionId: parent.sessionId })));
    await send(patch({ op: 'panel', panel: { permissions: [perm] } }));
    await flush();
    const card = page.locator('.permission[data-request-id="p-sub"]');
    await card.waitFor();
    assert.equal(await page.locator('[data-key="decoy"] .permission').count(), 0, 'not on a parent card that shares the id');
    assert.match(await card.innerText(), /Subagent Read notes\.txt needs you/);
    assert.equal(await card.getAttribute('aria-label'), `Subagent Read notes.txt asks permission: ${childTool.title}`);
    await page.screenshot({ path: path.join(shots, 'webview-subagent-permission.png') });
    await clearPosted();
    await page.locator('.transcript').focus();
    await page.keyboard.press('1');
    assert.deepEqual(await posted(), [{ type: 'permission', requestId: 'p-sub', optionId: 'ok' }]);
    // What it is doing now: the host's subagentActivity, shown while it runs.
    const now = page.locator(`[data-key="${running.key}"] .subagent-activity`);
    assert.equal(await now.isVisible(), false);
    await send(patch({ op: 'panel', panel: { subagentActivity: { [child.sessionId]: childTool.title } } }));
    await flush();
    assert.equal(await now.innerText(), `Now: ${childTool.title}`);
    const stop = page.locator(`[data-key="${running.key}"]`).getByRole('button', { name: 'Stop the subagent' });
    assert.equal(await stop.isVisible(), true);
    await clearPosted();
    await stop.click();
    assert.deepEqual(await posted(), [{ type: 'cancelSubagent', childSessionId: child.sessionId }]);
    // Finished, or never offering cancel: no Stop; finished, no "Now" line.
    await send(
      snapshot(
        [done, { ...running, key: 'no-cancel', childSessionId: 'other', canCancel: false }],
        panel({ sessionId: parent.sessionId, subagentActivity: { [child.sessionId]: childTool.title } }),
      ),
    );
    await flush();
    assert.equal(await page.locator('.stop-subagent:visible').count(), 0);
    assert.equal(await page.locator(`[data-key="${done.key}"] .subagent-activity`).isVisible(), false);
  });

  test('subagents: in the child\'s own transcript the task has no card to go to: a row "From …"', async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const { page, send, flush } = await open();
    await send(snapshot(child.entries, panel({ sessionId: child.sessionId })));
    await flush();
    const row = page.locator(`[data-key="${child.entries[0].key}"][data-kind="session_message"]`);
    assert.equal(await row.isVisible(), true);
    assert.equal(await row.locator('.entry-head .who').innerText(), `From session ${parent.sessionId.slice(0, 8)}…`);
    assert.match(await row.innerText(), /report its contents in one sentence/);
    assert.equal(await row.getAttribute('aria-label'), 'Message between sessions');
    // The host's subagent view names the session that started it (panel.parentSession).
    await send(snapshot(child.entries, panel({ sessionId: child.sessionId, parentSession: { sessionId: parent.sessionId, title: 'Fix the notes' } })));
    await flush();
    assert.equal(await row.locator('.entry-head .who').innerText(), 'From Fix the notes');
  });

  test('subagents: legacy: steps the user folds while the Agent call runs stay folded, also through a redraw before the click’s toggle event', async ({ open }) => {
    const [only] = recordedSessions('claude-next-subagent-legacy.jsonl');
    const agent = only.entries.find((e) => e.kind === 'tool_call' && e.name === 'Agent');
    const running = { ...agent, status: 'in_progress' };
    const { page, send, flush, wire, errors } = await open();
    await send(
      snapshot(
        only.entries.map((e) => (e === agent ? running : e)),
        panel({ sessionId: only.sessionId, turn: 'busy' }),
      ),
    );
    await flush();
    const steps = page.locator(`[data-key="${agent.key}"] details.tool-steps`);
    assert.equal(await steps.getAttribute('open'), '', 'open while the Agent call runs');
    await page.evaluate(
      ({ key, post }) => {
        document.querySelector(`[data-key="${key}"] details.tool-steps > summary`).click();
        window.__host.deliver(post.msg, post.raws);
        window.__acpChat.flush();
      },
      { key: agent.key, post: wire(patch({ op: 'replace', entry: { ...running, title: 'Agent: still running' } })) },
    );
    assert.match(await page.locator(`[data-key="${agent.key}"] .tool-title`).first().innerText(), /still running/, 'drawn again');
    assert.equal(await steps.getAttribute('open'), null, 'folded by the user, kept folded through a redraw before its toggle event');
    await send(patch({ op: 'replace', entry: { ...running, title: 'Agent: running on' } }));
    await flush();
    assert.equal(await steps.getAttribute('open'), null, 'and after it');
    assert.deepEqual(errors, []);
  });

  test('subagents: legacy (no subagents capability): the Read call is a step inside the Agent card, in order; permissions and search reach it', async ({ open }) => {
    const [only] = recordedSessions('claude-next-subagent-legacy.jsonl');
    const agent = only.entries.find((e) => e.kind === 'tool_call' && e.name === 'Agent');
    const read = only.entries.find((e) => e.kind === 'tool_call' && e.name === 'Read');
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(snapshot(only.entries, panel({ sessionId: only.sessionId })));
    await flush();
    const card = page.locator(`[data-key="${agent.key}"]`);
    const steps = card.locator('details.tool-steps');
    assert.equal(await steps.locator(':scope > summary').innerText(), '1 step');
    assert.equal(await steps.getAttribute('open'), null, 'the Agent call is done: its steps are folded');
    assert.equal(await page.locator(`[data-key="${read.key}"]`).isHidden(), true, 'no flat row for the step');
    assert.match(await steps.locator('.tool-card').first().locator('.tool-title').textContent(), /Read notes\.txt/, 'folded, but there');
    // Later steps come after it, in arrival order; one whose parent never appears stays where it is.
    const later = { ...read, key: 'step-2', toolCallId: 'toolu_step2', title: 'Grep TODO', status: 'in_progress', content: [], locations: [] };
    const stray = { ...read, key: 'stray', toolCallId: 'toolu_stray', title: 'Glob *.md', locations: [], meta: { claudeCode: { parentToolUseId: 'toolu_never' } } };
    await send(patch({ op: 'insert', entry: later }, { op: 'insert', entry: stray }));
    await flush();
    assert.deepEqual(await steps.locator('.tool-steps-list > .tool-card .tool-title').allTextContents(), ['Read notes.txt', 'Grep TODO']);
    assert.equal(await steps.locator(':scope > summary').innerText(), '2 steps');
    assert.equal(await page.locator('[data-key="stray"]').isVisible(), true);
    // A permission for the nested call is drawn on its card, which is opened for it, and answered by key.
    const perm = {
      requestId: 'perm-1',
      toolCallKey: 'step-2',
      toolCallId: 'toolu_step2',
      title: 'Grep TODO in src?',
      options: [
        { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    };
    await send(patch({ op: 'panel', panel: { permissions: [perm] } }));
    await flush();
    assert.equal(await steps.getAttribute('open'), '', 'a step waiting for you is shown');
    const nested = steps.locator('.tool-card.awaiting');
    assert.equal(await nested.locator('.permission').count(), 1);
    assert.match(await nested.locator('.tool-title').innerText(), /Grep TODO/);
    assert.equal(await page.locator('.orphan-permissions .permission, .footer .permission').count(), 0, 'not an orphan');
    mkdirSync(shots, { recursive: true });
    await card.screenshot({ path: path.join(shots, 'webview-subagent-steps.png'), animations: 'disabled' });
    await clearPosted();
    await page.locator('section[aria-label="Conversation"]').focus();
    await page.keyboard.press('1');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'permission'),
      [{ type: 'permission', requestId: 'perm-1', optionId: 'ok' }],
    );
    // Search finds the nested card's own text once (the Agent card does not count it again).
    await page.keyboard.press('Control+f');
    await page.locator('input[aria-label="Search in conversation"]').fill('subagent-legacy/notes');
    assert.equal(await page.locator('.search-count').innerText(), '1 of 1');
    // Reveal of the nested entry unfolds its host and scrolls to it.
    await send(patch({ op: 'panel', panel: { permissions: [] } }));
    await send({ type: 'reveal', key: read.key });
    assert.equal(await steps.getAttribute('open'), '');
    assert.deepEqual(errors, []);
  });

  test('subagents: a running card counts its time once a second, from one timer; finished, it says how long it worked', async ({ open }) => {
    const [parent] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const { page, send, flush } = await open({ beforeLoad: clocked(T0 + 12_000) });
    await send(snapshot([cardFrom(card, { state: 'running', stopReason: null }, T0)], panel({ sessionId: parent.sessionId, turn: 'busy' })));
    await flush();
    const badge = page.locator(`[data-key="${card.key}"] .subagent-state`);
    assert.equal(await badge.innerText(), 'running · 12 s');
    assert.equal(await badge.locator('.codicon-loading').count(), 1);
    assert.match(await page.locator(`[data-key="${card.key}"]`).getAttribute('aria-label'), /^Subagent: Read notes\.txt, running$/, 'no seconds in its name');
    assert.equal(await liveIntervals(page), 1);
    await page.clock.runFor(3000);
    assert.equal(await badge.innerText(), 'running · 15 s');
    await page.clock.runFor(60_000);
    assert.equal(await badge.innerText(), 'running · 1 min 15 s');
    await send(patch({ op: 'replace', entry: cardFrom(card, { state: 'idle', stopReason: 'end_turn' }, T0 + 80_000, T0) }));
    await flush();
    assert.equal(await badge.innerText(), 'done · 1 min 20 s');
    assert.match(await page.locator(`[data-key="${card.key}"]`).getAttribute('aria-label'), /done, worked for 1 min 20 s$/);
    assert.equal(await liveIntervals(page), 0, 'nothing runs: the timer is gone');
    await send(patch({ op: 'replace', entry: cardFrom(card, { state: 'idle', stopReason: 'max_tokens' }, T0 + 80_000, T0) }));
    await flush();
    assert.equal(await badge.innerText(), 'stopped (max tokens) · 1 min 20 s');
    await send(patch({ op: 'replace', entry: cardFrom(card, { state: 'requires_action', stopReason: null }, T0 + 90_000, T0) }));
    await flush();
    assert.equal(await badge.innerText(), 'needs you');
    assert.match(await page.locator(`[data-key="${card.key}"]`).getAttribute('class'), /\bawaiting\b/);
  });

  test('subagents: several cards running at once share one timer, each with its own time; it stops when the last one ends', async ({ open }) => {
    const [parent] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const cards = [0, 5000, 9000].map((since, i) =>
      cardFrom({ ...card, key: `c${i}`, childSessionId: `child-${i}`, title: `Helper ${i + 1}` }, { state: 'running', stopReason: null }, T0 + since),
    );
    const { page, send, flush } = await open({ beforeLoad: clocked(T0 + 12_000) });
    await send(snapshot(cards, panel({ sessionId: parent.sessionId, turn: 'busy' })));
    await flush();
    const times = () => page.locator('.subagent-state').allInnerTexts();
    assert.deepEqual(await times(), ['running · 12 s', 'running · 7 s', 'running · 3 s']);
    assert.equal(await liveIntervals(page), 1, 'one timer for three cards');
    await page.clock.runFor(1000);
    assert.deepEqual(await times(), ['running · 13 s', 'running · 8 s', 'running · 4 s']);
    await send(patch({ op: 'replace', entry: cardFrom(cards[0], { state: 'idle', stopReason: 'end_turn' }, T0 + 13_000, T0) }));
    await flush();
    assert.equal(await liveIntervals(page), 1);
    await page.clock.runFor(1000);
    assert.deepEqual(await times(), ['done · 13 s', 'running · 9 s', 'running · 5 s']);
    await send(
      patch(
        { op: 'replace', entry: cardFrom(cards[1], { state: 'idle', stopReason: 'end_turn' }, T0 + 14_000, T0 + 5000) },
        { op: 'replace', entry: cardFrom(cards[2], { state: 'unknown' }, T0 + 14_000, T0 + 9000) },
      ),
    );
    await flush();
    assert.equal(await liveIntervals(page), 0);
    assert.deepEqual(await times(), ['done · 13 s', 'done · 9 s', 'state unknown']);
  });

  for (const theme of ['dark', 'light']) {
    test(`subagents: screenshot of a finished and a running subagent (${theme})`, async ({ open }) => {
      const [parent] = recordedSessions('claude-next-subagent.jsonl');
      const card = parent.entries.find((e) => e.kind === 'subagent');
      const prompt = parent.entries.find((e) => e.kind === 'session_message');
      // The recorded card finished in milliseconds (a mock model): give it the 41 s a real one takes.
      const done = cardFrom(card, {}, card.stateSince, card.stateSince - 41_000);
      const running = cardFrom(
        { ...card, key: 'running-card', childSessionId: 'a7c2e90b41d5f3e68', title: 'Find the TODOs in src/', description: 'Explore' },
        { state: 'running', stopReason: null },
        T0,
      );
      const task = {
        ...prompt,
        key: 'running-task',
        messageId: 'toolu_running',
        content: [{ type: 'text', text: 'List every TODO comment under src/, grouped by file, with its line.' }],
        route: { ...prompt.route, recipientSessionId: 'a7c2e90b41d5f3e68', recipientMessageId: 'toolu_running' },
      };
      const entries = parent.entries.slice(0, -2).map((e) => (e.key === card.key ? done : e));
      const { page, send, flush, errors } = await open({ theme, height: 820, beforeLoad: clocked(T0 + 12_000) });
      await send(snapshot([...entries, running, task], panel({ sessionId: parent.sessionId, turn: 'busy', title: 'Subagents' })));
      await flush();
      assert.equal(await page.locator('[data-key="running-card"] .subagent-state').innerText(), 'running · 12 s');
      assert.equal(await page.locator(`[data-key="${card.key}"] .subagent-state`).innerText(), 'done · 41 s');
      await page.locator('[data-key="running-card"] details.subagent-task > summary').click();
      await page.mouse.move(0, 0);
      await page.evaluate(() => document.activeElement?.blur());
      await page.evaluate(() => document.fonts.ready);
      mkdirSync(shots, { recursive: true });
      // The conversation only, with the transcript's own margin around it.
      const box = await page.locator('.entries').boundingBox();
      const clip = { x: Math.max(0, box.x - 10), y: Math.max(0, box.y - 10), width: box.width + 20, height: box.height + 20 };
      await page.screenshot({ path: path.join(shots, `webview-subagents-${theme}.png`), clip, animations: 'disabled' });
      assert.deepEqual(errors, []);
    });
  }

  test('subagents: a background subagent\'s "launched" reply is no result: none while it runs, then the child\'s own last message (subagentResults)', async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent-bg.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const running = { ...card, state: 'running', stopReason: null };
    const last = child.entries.findLast((e) => e.kind === 'agent_message');
    const { page, send, flush, errors } = await open();
    await send(
      snapshot(
        parent.entries.map((e) => (e === card ? running : e)),
        panel({ sessionId: parent.sessionId, turn: 'busy' }),
      ),
    );
    await flush();
    const el = page.locator(`[data-key="${card.key}"]`);
    assert.equal(await el.locator('details.subagent-task').count(), 1, 'the task is shown');
    assert.equal(await el.getByRole('group', { name: 'Result' }).count(), 0, 'no result while it runs');
    assert.doesNotMatch(await page.locator('.transcript').innerText(), /Async agent launched/);
    // Done: the host says what the result is instead of the reply.
    await send(patch({ op: 'replace', entry: card }, { op: 'panel', panel: { subagentResults: { [child.sessionId]: last.content } } }));
    await flush();
    assert.match(await el.getByRole('group', { name: 'Result' }).innerText(), /Report: notes\.txt has one line, “hello”\. ✅/);
    assert.doesNotMatch(await page.locator('.transcript').innerText(), /Async agent launched/);
    assert.equal(await el.getByRole('group', { name: 'Result' }).count(), 1);
    assert.deepEqual(errors, []);
  });
}
