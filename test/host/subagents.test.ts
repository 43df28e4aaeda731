/**
 * Subagents through the real extension and the demo agent's "subagent" step: the child's permission request
 * is shown in the chat of the session that started it, naming the subagent, and answered there; the child's
 * write is in that turn's Changes summary, naming the delegation card and the child's own card, and both
 * follow its review (Undo); the Message Tree nests the child's session under its parent.
 */
import * as assert from 'assert';
import { api } from './util';
import { until } from '../helpers/until.mjs';
import { cardReviews } from '../../src/common/changes/toolCards';

suite('Subagents', () => {
  test("a subagent's permission request, its edit and its session, all under the chat that started it", async () => {
    const a = await api();
    await a.openChat();
    await a.whenPanelReady();
    const chat = a.service.activeSession();
    const before = new Set(chat.panelState().changeSets.map((s) => s.id));
    const turn = a.sendPrompt('ask a subagent');
    const request = await until(() => chat.panelState().permissions[0], "the subagent's permission request in the chat", 30_000);
    assert.strictEqual(request.fromSubagent, 'Edit demo-edit.txt for me');
    const allow = request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow && a.respondPermission(request.requestId, allow.optionId));
    await turn;
    const set = chat.panelState().changeSets.find((s) => !before.has(s.id));
    assert.ok(
      set?.files.some((f) => f.path.endsWith('demo-edit.txt')),
      "the subagent's write is in the turn's Changes",
    );
    assert.ok(set);
    // The delegation card and the child's edit card made that change: review says so on both.
    const index = set.files.findIndex((f) => f.path.endsWith('demo-edit.txt'));
    const delegation = chat.store.session(chat.sessionId ?? '')?.entries.findLast((e) => e.kind === 'subagent');
    const childCard = chat.store
      .session(delegation?.kind === 'subagent' ? delegation.childSessionId : '')
      ?.entries.find((e) => e.kind === 'tool_call' && e.title === 'Edit demo-edit.txt');
    assert.ok(delegation && childCard);
    assert.deepStrictEqual(set.files[index]?.tools, [delegation.key, childCard.key]);
    chat.reviewChanges(set.id, index, 'undo');
    const labels = () => {
      const r = cardReviews(chat.panelState().changeSets);
      return [r.get(delegation.key)?.label, r.get(childCard.key)?.label];
    };
    await until(() => labels().every((l) => l === 'Undone'), 'both cards: Undone', 10_000);

    const tree = a.service.tree;
    const sid = chat.sessionId;
    const roots = tree.getChildren().filter((n) => n.type === 'session');
    assert.ok(
      roots.some((n) => n.type === 'session' && n.sessionId === sid),
      'the chat session is a root',
    );
    const child = chat.store.sessions().find((s) => s.parentSessionId === sid);
    assert.ok(child, 'the subagent is a session of the store');
    assert.ok(!roots.some((n) => n.type === 'session' && n.sessionId === child.sessionId), 'the subagent is not a root');
    const parentNode = roots.find((n) => n.type === 'session' && n.sessionId === sid)!;
    const nested = tree.getChildren(parentNode).find((n) => n.type === 'session' && n.sessionId === child.sessionId);
    assert.ok(nested, 'the subagent is nested under its parent');
    assert.strictEqual(nested.label, 'Subagent: Edit demo-edit.txt for me');
    assert.match(nested.type === 'session' ? nested.description : '', /^idle \(end_turn\)/);
    // Reveal from the panel finds the child's entry through its parent.
    const key = child.entries[0]?.key;
    assert.ok(key);
    const node = tree.entryNodeFor(child.sessionId, key);
    assert.ok(node);
    assert.strictEqual(tree.getParent(node)?.id, nested.id);
    assert.strictEqual(tree.getParent(tree.getParent(node)!)?.id, parentNode.id);
  });
});
