// A subagent opened in its own tab (subagentControls.ts): its tool cards get the chat's Changes of its
// root turn, marked for the cards only (the summary is the chat's own panel's), and each change the review
// makes reaches that tab as a `changeSet` patch. The review stays the one owner. Driven by the recorded
// Claude subagent turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore, type StoreDelta } from '../../../src/common/store';
import { Emitter } from '../../../src/common/util/lifecycle';
import { PermissionBroker } from '../../../src/common/permissionBroker';
import { ElicitationBroker } from '../../../src/common/elicitationBroker';
import { subagentModel } from '../../../src/node/chat/subagentControls';
import type { PanelDelta } from '../../../src/common/webview/panelDeltas';
import { memoryReview } from '../helpers/editCapture';

const ROOT = 'b830f726-44af-401b-a4b4-799f7f25aafa';
const CHILD = 'a9fd9da01c3852c64';

test("a subagent's own tab carries its root turn's change sets for its cards only, and follows the review", async () => {
  const store = new MessageStore({ now: () => 0 });
  const changed = new Emitter<readonly StoreDelta[]>();
  const lines = readFileSync(path.join(__dirname, '../../fixtures/transcripts/claude-next-subagent.jsonl'), 'utf8').split('\n');
  lines.forEach((l, i) => l.trim() && changed.fire(store.ingestLine(l, i + 1)));
  assert.equal(store.session(CHILD)?.parentSessionId, ROOT);
  const disk = new Map([['/w/notes.txt', 'hello\n']]);
  const review = memoryReview(disk, { agentName: () => 'Claude' });
  // The child's write is its root turn's (chatFactory's onWrite): the set is the root session's.
  review.turnStarted(ROOT);
  review.wrote(ROOT, '/w/notes.txt', 'hello\n', 'hello\nworld\n', null);
  disk.set('/w/notes.txt', 'hello\nworld\n');
  await review.turnEnded(ROOT, [], null);
  const deps = { store, agentName: 'Claude', onStoreChanged: changed.event, broker: new PermissionBroker(), elicitations: new ElicitationBroker(), act: () => undefined, review };
  const tab = subagentModel(deps, CHILD);
  const sets = tab.snapshot().panel.changeSets;
  assert.deepEqual(
    sets.map((s) => [s.id, s.cardsOnly, s.files.map((f) => [f.path, f.state])]),
    [['c1', true, [['notes.txt', 'pending']]]],
  );
  const deltas: PanelDelta[] = [];
  tab.onDidChange((d) => deltas.push(...d));
  await review.act('c1', 0, 'undo');
  const op = deltas.find((d) => d.type === 'changeSet');
  assert.ok(op?.type === 'changeSet' && op.set?.cardsOnly === true && op.set.files[0]?.state === 'undone', JSON.stringify(deltas));
  // Expanded in its card (not its own tab), the chat's panel already shows the sets: none sent again.
  assert.deepEqual(subagentModel(deps, CHILD, false).snapshot().panel.changeSets, []);
  tab.dispose();
});
