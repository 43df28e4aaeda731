// Browser checks of a subagent's transcript expanded in place, in its delegation card: the toggle (a button
// with aria-expanded, by keyboard), the webview telling the host which children are expanded
// (`expandSubagents`, the whole set, again after a snapshot and from its saved state), the child's feed
// (`subagent` messages: its own snapshot and patches, its own handles) drawn by the chat's entry views and
// streaming, nothing drawn twice, a feed of a collapsed child ignored, and a child's permission request drawn
// on its tool card inside the card and answered there. Entries are the recorded Claude transcripts reduced by
// the store. Registered by run.mjs.
import assert from 'node:assert/strict';
import path from 'node:path';
import { PROTOCOL, panel, snapshot, patch } from './fixtures.mjs';
import { assertClean, axeRun } from './a11y.mjs';
import { root } from './server.mjs';
import { recordedSessions } from './recorded.mjs';

const shots = path.join(root, 'test-results');
/** A post of the child's own feed. */
const fed = (childSessionId, message) => ({ type: 'subagent', childSessionId, message });

const expandPosts = async (posted) => (await posted()).filter((m) => m.type === 'expandSubagents');

export function register(test) {
  test("subagent expanded in place: a keyboard toggle with aria-expanded; the child's own feed drawn in the card, streaming; collapsed again, nothing of it left", async ({
    open,
  }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const running = { ...card, state: 'running', stopReason: null };
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(
      snapshot(
        parent.entries.map((e) => (e === card ? running : e)),
        panel({ sessionId: parent.sessionId, turn: 'busy' }),
      ),
    );
    await flush();
    assert.deepEqual(await expandPosts(posted), [], 'nothing expanded: the host feeds nothing');
    const el = page.locator(`[data-key="${card.key}"]`);
    const toggle = el.getByRole('button', { name: "Show the subagent's transcript here" });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await expandPosts(posted), [{ type: 'expandSubagents', childSessionIds: [child.sessionId] }]);
    const hide = el.getByRole('button', { name: "Hide the subagent's transcript" });
    assert.equal(await hide.getAttribute('aria-expanded'), 'true');
    const nested = el.getByRole('region', { name: 'Transcript of subagent Read notes.txt' });
    assert.equal(await hide.getAttribute('aria-controls'), await nested.getAttribute('id'));
    // The child's feed: its snapshot (all but its last message, which streams in below).
    const last = child.entries[child.entries.length - 1];
    await send(fed(child.sessionId, snapshot(child.entries.slice(0, -1), panel({ sessionId: child.sessionId, turn: 'busy', readOnly: true }))));
    await flush();
    for (const e of child.entries.slice(0, -1)) assert.equal(await nested.locator(`[data-key="${e.key}"]`).count(), 1, e.kind);
    assert.match(await nested.innerText(), /Reading notes\.txt for the parent agent/);
    // The task is in the child's transcript: the card's own copy (and its result) step aside.
    assert.equal(await el.locator('.subagent-messages').isHidden(), true);
    assert.equal((await el.innerText()).split('(subagent task)').length - 1, 1, 'the task is shown once');
    // Streaming: an entry inserted, then text appended to it (handles of the child's own feed).
    await send(fed(child.sessionId, patch({ op: 'insert', entry: { ...last, content: [{ type: 'text', text: 'Report: notes.txt' }] } })));
    await send(fed(child.sessionId, patch({ op: 'appendText', key: last.key, text: ' has one line.' })));
    await flush();
    assert.match(await nested.locator(`[data-key="${last.key}"]`).innerText(), /\nReport: notes\.txt has one line\.$/);
    // View state: kept in the webview's saved state, not in the chat.
    assert.deepEqual((await page.evaluate(() => window.__host.states)).at(-1).expandedSubagents, [child.sessionId]);
    // A feed of a child this webview has not expanded (a post in flight as it folded) changes nothing.
    await send(fed('someone-else', patch({ op: 'appendText', key: last.key, text: 'stray' })));
    // The README's picture (media/screenshots/subagent-expanded.png): the chat down to the expanded card.
    const box = await el.boundingBox();
    await page.screenshot({
      path: path.join(shots, 'webview-subagent-expanded.png'),
      clip: { x: 0, y: 0, width: 520, height: Math.ceil(box.y + box.height + 8) },
      animations: 'disabled',
    });
    assertClean(await axeRun(page), 'expanded subagent');
    // Collapsed by keyboard: the host is told, the child's entries leave, the card's task and result come back.
    await clearPosted();
    await hide.focus();
    await page.keyboard.press('Space');
    assert.deepEqual(await expandPosts(posted), [{ type: 'expandSubagents', childSessionIds: [] }]);
    assert.equal(await el.locator('[data-key="' + last.key + '"]').count(), 0);
    assert.equal(await el.locator('.subagent-messages').isVisible(), true);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await send(fed(child.sessionId, patch({ op: 'appendText', key: last.key, text: ' late' })));
    await flush();
    assert.equal(await el.locator('.subagent-transcript').count(), 0, 'a late post of a folded child draws nothing');
    assert.deepEqual(errors, []);
  });

  test('subagent expanded in place: the webview keeps which cards are expanded in its saved state, and tells the host again after every snapshot', async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const { page, send, flush, posted, clearPosted } = await open({ state: { v: PROTOCOL, draft: '', scrollKey: null, expandedSubagents: [child.sessionId, 42] } });
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId })));
    await flush();
    assert.deepEqual(await expandPosts(posted), [{ type: 'expandSubagents', childSessionIds: [child.sessionId] }]);
    const el = page.locator(`[data-key="${card.key}"]`);
    assert.equal(await el.getByRole('button', { name: "Hide the subagent's transcript" }).getAttribute('aria-expanded'), 'true');
    await send(fed(child.sessionId, snapshot(child.entries, panel({ sessionId: child.sessionId, readOnly: true }))));
    await flush();
    assert.equal(await el.locator(`.subagent-transcript [data-key="${child.entries[1].key}"]`).count(), 1);
    // A fresh snapshot of the chat restarts the host's feeds: the set goes again, and patches of the old feed
    // (its handles) wait for the new feed's snapshot.
    await clearPosted();
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId })));
    await flush();
    assert.deepEqual(await expandPosts(posted), [{ type: 'expandSubagents', childSessionIds: [child.sessionId] }]);
    await send(fed(child.sessionId, patch({ op: 'appendText', h: 99, text: 'x' })));
    await send(fed(child.sessionId, snapshot(child.entries, panel({ sessionId: child.sessionId, readOnly: true }))));
    await flush();
    assert.match(await el.locator('.subagent-transcript').innerText(), /Reading notes\.txt/);
  });

  test("subagent expanded in place: the child's permission request is drawn on its tool card inside the card (not above the prompt box) and answered there", async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent-permission.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const running = { ...card, state: 'requires_action', stopReason: null };
    const tool = child.entries.find((e) => e.kind === 'tool_call' && e.toolKind === 'execute');
    const perm = {
      requestId: 'p-sub',
      toolCallKey: tool.key,
      toolCallId: tool.toolCallId,
      title: tool.title,
      fromSubagent: card.title,
      options: [
        { optionId: 'ok', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    };
    const { page, send, flush, posted, clearPosted, errors } = await open({ state: { v: PROTOCOL, draft: '', scrollKey: null, expandedSubagents: [child.sessionId] } });
    await send(
      snapshot(
        parent.entries.map((e) => (e === card ? running : e)),
        panel({ sessionId: parent.sessionId, turn: 'busy', permissions: [perm] }),
      ),
    );
    await flush();
    // Before the child's feed came: the request waits above the prompt box, as for a folded card.
    assert.equal(await page.locator('.orphan-permissions .permission[data-request-id="p-sub"]').count(), 1);
    await send(
      fed(
        child.sessionId,
        snapshot(
          child.entries.map((e) => (e === tool ? { ...tool, status: 'pending' } : e)),
          panel({ sessionId: child.sessionId, turn: 'busy', readOnly: true }),
        ),
      ),
    );
    await flush();
    const onCard = page.locator(`[data-key="${card.key}"] .subagent-transcript [data-key="${tool.key}"] .permission[data-request-id="p-sub"]`);
    await onCard.waitFor();
    assert.equal(await page.locator('.permission[data-request-id="p-sub"]').count(), 1, 'drawn once');
    assert.equal(await page.locator('.orphan-permissions .permission').count(), 0);
    await clearPosted();
    await onCard.getByRole('button', { name: /Allow once/ }).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'permission'),
      [{ type: 'permission', requestId: 'p-sub', optionId: 'ok' }],
    );
    assert.deepEqual(errors, []);
  });

  test("subagent expanded in place: a subagent's own subagent expands inside it, from its own card in the child's transcript", async ({ open }) => {
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const grandCard = { ...card, key: 'grand-card', childSessionId: 'grandchild', title: 'Look deeper' };
    const grandEntry = { ...child.entries.find((e) => e.kind === 'agent_message'), key: 'grand-text', content: [{ type: 'text', text: 'Deeper down.' }] };
    const { page, send, flush, posted, errors } = await open({ state: { v: PROTOCOL, draft: '', scrollKey: null, expandedSubagents: [child.sessionId] } });
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId })));
    await send(fed(child.sessionId, snapshot([...child.entries, grandCard], panel({ sessionId: child.sessionId, readOnly: true }))));
    await flush();
    const inner = page.locator('[data-key="grand-card"]');
    await inner.getByRole('button', { name: "Show the subagent's transcript here" }).click();
    assert.deepEqual((await expandPosts(posted)).at(-1), { type: 'expandSubagents', childSessionIds: [child.sessionId, 'grandchild'] });
    await send(fed('grandchild', snapshot([grandEntry], panel({ sessionId: 'grandchild', readOnly: true }))));
    await flush();
    const nested = page.locator(`[data-key="${card.key}"] .subagent-transcript [data-key="grand-card"] .subagent-transcript`);
    assert.match(await nested.locator('[data-key="grand-text"]').innerText(), /Deeper down\./);
    assert.equal(await nested.getAttribute('aria-label'), 'Transcript of subagent Look deeper');
    assert.deepEqual(errors, []);
  });

  test("subagent expanded in place: a child's long answer, streamed, keeps the card pinned to its end, and its first paragraph reads when scrolled back up", async ({ open }) => {
    // Finished groups of blocks in a card skip painting while out of its view (chat.css): a card's own
    // scroll must still reach all of them, at their real heights.
    const [parent, child] = recordedSessions('claude-next-subagent.jsonl');
    const card = parent.entries.find((e) => e.kind === 'subagent');
    const last = child.entries[child.entries.length - 1];
    const { page, send, flush, errors } = await open({ state: { v: PROTOCOL, draft: '', scrollKey: null, expandedSubagents: [child.sessionId] } });
    await send(snapshot(parent.entries, panel({ sessionId: parent.sessionId, turn: 'busy' })));
    await send(fed(child.sessionId, snapshot(child.entries.slice(0, -1), panel({ sessionId: child.sessionId, turn: 'busy', readOnly: true }))));
    await send(fed(child.sessionId, patch({ op: 'insert', entry: { ...last, content: [{ type: 'text', text: '' }] } })));
    await flush();
    const nested = page.locator(`[data-key="${card.key}"] .subagent-transcript`);
    const paragraph = (i) => `Paragraph ${i} of the long answer, ${'words that wrap over the line '.repeat(4)}end ${i}.\n\n`;
    // A frame drawn after each paragraph, as a stream draws them: each drawing freezes a segment.
    for (let i = 0; i < 110; i++) {
      await send(fed(child.sessionId, patch({ op: 'appendText', key: last.key, text: paragraph(i) })));
      await flush();
    }
    assert.ok((await nested.locator('.md-group.full').count()) >= 3, 'groups of finished blocks');
    const pinned = () => nested.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    assert.ok((await pinned()) < 2, `the card follows its answer to the end (${await pinned()} px short)`);
    await nested.evaluate((el) => (el.scrollTop = 0));
    const first = nested.locator('p', { hasText: 'Paragraph 0 of the long answer' });
    await page.waitForFunction(
      ([el, p]) => {
        const r = p.getBoundingClientRect();
        const c = el.getBoundingClientRect();
        // Drawn, not only laid out: a group skipped while out of view is drawn in the frame after it comes in.
        return r.height > 0 && r.top >= c.top - 1 && r.top < c.bottom && p.innerText.startsWith('Paragraph 0');
      },
      [await nested.elementHandle(), await first.elementHandle()],
    );
    assert.match(await first.innerText(), /^Paragraph 0 of the long answer, words/);
    // Back at the end, the card follows again as the answer grows.
    await nested.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await send(fed(child.sessionId, patch({ op: 'appendText', key: last.key, text: 'The last words.' })));
    await flush();
    await page.waitForFunction((el) => el.scrollHeight - el.clientHeight - el.scrollTop < 2, await nested.elementHandle());
    assert.match(await nested.innerText(), /The last words\.$/);
    assert.deepEqual(errors, []);
  });
}
