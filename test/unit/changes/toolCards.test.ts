// Tool cards in step with review: a turn's change set names the tool calls that edited each file (v1 and
// v2 diffs, an edit tool's locations; not a read's), and each card's state is derived from those files'
// review states: Kept, Undone, Partly kept / Partly undone. Saved with the summaries and relinked with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeReview } from '../../../src/common/changes/review';
import { cardReviews, toolKeysByPath } from '../../../src/common/changes/toolCards';
import { relinkSaved, restoreChanges, savedChanges, savedEntryKeys } from '../../../src/common/changes/persist';
import { computeHunks } from '../../../src/common/changes/hunks';
import type { Entry, SubagentEntry, ToolCallEntry } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';
import { memoryReview } from '../helpers/editCapture';

function tool(key: string, toolKind: string, content: ToolCallEntry['content'], locations: string[] = []): ToolCallEntry {
  return toolCallEntry(key, { toolKind, content, locations: locations.map((path) => ({ path })) });
}

function setup(files: Record<string, string>) {
  const disk = new Map(Object.entries(files));
  return { review: memoryReview(disk, { canonical: (p) => (p.startsWith('/') ? p : `/w/${p}`) }), disk };
}

const labels = (r: ChangeReview) => Object.fromEntries([...cardReviews(r.views('s'))].map(([k, v]) => [k, v.label]));

test('the tool calls that edited a file are named by canonical path; a read names nothing', () => {
  const entries = [
    tool('k1', 'edit', [{ type: 'diff', path: 'a.txt', oldText: 'x', newText: 'y' }]),
    tool('k2', 'read', [], ['/w/a.txt']),
    tool('k3', 'edit', [], ['/w/b.txt']),
    tool('k4', 'execute', [{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.txt' }], patch: null }]),
  ];
  assert.deepEqual(
    toolKeysByPath(entries, (p) => (p.startsWith('/') ? p : `/w/${p}`)),
    [
      { path: '/w/a.txt', keys: ['k1', 'k4'] },
      { path: '/w/b.txt', keys: ['k3'] },
    ],
  );
});

test('cards follow Keep, Undo and hunks: nothing until reviewed, then Kept / Undone / Partly', async () => {
  const before = 'one\ntwo\nthree\nfour\nfive\n';
  const after = 'ONE\ntwo\nthree\nfour\nFIVE\n';
  const t = setup({ '/w/a.txt': before, '/w/b.txt': 'b\n' });
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/a.txt', before, after, null);
  t.disk.set('/w/a.txt', after);
  t.review.wrote('s', '/w/b.txt', 'b\n', 'B\n', null);
  t.disk.set('/w/b.txt', 'B\n');
  const cards = [
    tool('ka', 'edit', [{ type: 'diff', path: '/w/a.txt', oldText: before, newText: after }]),
    tool('kb', 'edit', [{ type: 'diff', path: 'b.txt', oldText: 'b\n', newText: 'B\n' }]),
    tool('kab', 'other', [
      { type: 'diff', path: '/w/a.txt', oldText: before, newText: after },
      { type: 'diff', path: '/w/b.txt', oldText: 'b\n', newText: 'B\n' },
    ]),
  ];
  await t.review.turnEnded('s', cards, 'kab');
  assert.deepEqual(labels(t.review), {}, 'nothing reviewed yet: no card says anything');

  const [first] = computeHunks(before, after);
  assert.ok(first);
  assert.equal(await t.review.actOnHunk('c1', '/w/a.txt', first, 'keep'), null);
  assert.deepEqual(labels(t.review), { ka: 'Partly kept', kab: 'Partly kept' }, 'one hunk of a.txt kept, one still open');

  await t.review.act('c1', 1, 'undo');
  assert.equal(t.disk.get('/w/b.txt'), 'b\n');
  assert.deepEqual(labels(t.review), { ka: 'Partly kept', kb: 'Undone', kab: 'Partly undone' });

  await t.review.act('c1', 0, 'keep');
  assert.deepEqual(labels(t.review), { ka: 'Kept', kb: 'Undone', kab: 'Partly undone' }, 'a card over a kept and an undone file is partly undone');
});

test('a file settled with hunks both kept and undone is partly undone; the tool keys are saved and relinked', async () => {
  const before = 'one\ntwo\nthree\nfour\nfive\n';
  const after = 'ONE\ntwo\nthree\nfour\nFIVE\n';
  const t = setup({ '/w/a.txt': before });
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/a.txt', before, after, null);
  t.disk.set('/w/a.txt', after);
  await t.review.turnEnded('s', [tool('ka', 'edit', [], ['/w/a.txt'])], 'ka');
  const [h1, h2] = computeHunks(before, after);
  assert.ok(h1 && h2);
  assert.equal(await t.review.actOnHunk('c1', '/w/a.txt', h2, 'undo'), null);
  assert.equal(await t.review.actOnHunk('c1', '/w/a.txt', h1, 'keep'), null);
  assert.equal(t.review.views('s')[0]?.files[0]?.state, 'kept');
  assert.deepEqual(labels(t.review), { ka: 'Partly undone' });

  const saved = savedChanges(t.review.state);
  assert.deepEqual(restoreChanges(JSON.parse(JSON.stringify(saved))).state.sets[0]?.files[0]?.tools, ['ka']);
  assert.deepEqual(savedEntryKeys(saved), ['ka', 'ka'], 'the summary is shown after ka and names ka as its card');
  const relinked = restoreChanges(relinkSaved(saved, (k) => (k === 'ka' ? 'k9' : undefined))).state;
  assert.equal(relinked.sets[0]?.afterKey, 'k9');
  assert.deepEqual(relinked.sets[0]?.files[0]?.tools, ['k9']);
});

test('a terminal command whose tool call reports its diff is reviewed like any edit; one that reports none is not seen', async () => {
  const t = setup({ '/w/fmt.txt': 'a  b\n', '/w/silent.txt': 'changed by sed\n' });
  t.review.turnStarted('s');
  const run = tool('kt', 'execute', [
    { type: 'terminal', terminalId: 'term-1' },
    { type: 'diff', path: '/w/fmt.txt', oldText: 'a   b\n', newText: 'a  b\n' },
  ]);
  const silent = tool('ks', 'execute', [{ type: 'terminal', terminalId: 'term-2' }]);
  await t.review.turnEnded('s', [run, silent], 'ks');
  const files = t.review.views('s')[0]?.files ?? [];
  assert.deepEqual(
    files.map((f) => [f.path, f.source, f.canUndo, f.tools]),
    [['fmt.txt', 'diff', true, ['kt']]],
  );
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.disk.get('/w/fmt.txt'), 'a   b\n');
  assert.deepEqual(labels(t.review), { kt: 'Undone' });
});

function subagent(key: string, childSessionId: string): SubagentEntry {
  const stats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };
  return {
    kind: 'subagent',
    key,
    childSessionId,
    title: 'Fix',
    description: null,
    canCancel: false,
    state: 'idle',
    stopReason: null,
    stateSince: 0,
    cwd: null,
    provenance: 'live',
    stats,
  };
}

test("a subagent's edits: its delegation card is named with its child's cards (any depth, each child once), and both follow review", async () => {
  // The parent delegates; the child writes a.txt (a write the root's turn records) and reports a diff of b.txt;
  // the child's own subagent edits c.txt. A card naming its ancestor is walked once.
  const children: Record<string, Entry[]> = {
    child: [tool('kc1', 'edit', [], ['/w/a.txt']), tool('kc2', 'edit', [{ type: 'diff', path: '/w/b.txt', oldText: 'b\n', newText: 'B\n' }]), subagent('kg', 'grandchild')],
    grandchild: [tool('kg1', 'edit', [], ['/w/c.txt']), subagent('loop', 'child')],
  };
  const entries = [tool('kp', 'read', [], ['/w/a.txt']), subagent('ks', 'child')];
  const canon = (p: string) => p;
  assert.deepEqual(toolKeysByPath(entries, canon), [], 'without the children nothing is named');
  assert.deepEqual(
    toolKeysByPath(entries, canon, (id) => children[id] ?? []),
    [
      { path: '/w/a.txt', keys: ['ks', 'kc1'] },
      { path: '/w/b.txt', keys: ['ks', 'kc2'] },
      { path: '/w/c.txt', keys: ['ks', 'kg', 'kg1'] },
    ],
  );

  const t = setup({ '/w/a.txt': 'A\n', '/w/b.txt': 'B\n', '/w/c.txt': 'C\n' });
  t.review.turnStarted('s');
  t.review.wrote('s', '/w/a.txt', 'a\n', 'A\n', null);
  t.review.wrote('s', '/w/c.txt', 'c\n', 'C\n', null);
  await t.review.turnEnded('s', entries, 'ks', (id) => children[id] ?? []);
  const files = t.review.views('s')[0]?.files ?? [];
  assert.deepEqual(
    files.map((f) => [f.path, f.source, f.tools]),
    [
      ['a.txt', 'write', ['ks', 'kc1']],
      ['c.txt', 'write', ['ks', 'kg', 'kg1']],
      ['b.txt', 'diff', ['ks', 'kc2']],
    ],
    "the child's reported diff is the turn's too",
  );
  await t.review.act('c1', 0, 'undo');
  assert.equal(t.disk.get('/w/a.txt'), 'a\n');
  assert.deepEqual(labels(t.review), { ks: 'Partly undone', kc1: 'Undone' });
  await t.review.act('c1', null, 'keep');
  assert.deepEqual(labels(t.review), { ks: 'Partly undone', kc1: 'Undone', kc2: 'Kept', kg: 'Kept', kg1: 'Kept' });
});

test("an agent without the subagents capability: the Agent call is named with its child's calls, linked by parentToolUseId (a loop of links ends)", () => {
  const under = (key: string, parent: string, content: ToolCallEntry['content'] = []) =>
    toolCallEntry(key, { toolCallId: `toolu_${key}`, meta: { claudeCode: { parentToolUseId: `toolu_${parent}` } }, content });
  const entries = [
    toolCallEntry('agent', { toolCallId: 'toolu_agent', toolKind: 'think' }),
    under('step', 'agent', [{ type: 'diff', path: '/w/a.txt', oldText: 'a', newText: 'A' }]),
    under('x', 'y', [{ type: 'diff', path: '/w/b.txt', oldText: 'b', newText: 'B' }]),
    under('y', 'x'),
  ];
  assert.deepEqual(
    toolKeysByPath(entries, (p) => p),
    [
      { path: '/w/a.txt', keys: ['agent', 'step'] },
      { path: '/w/b.txt', keys: ['y', 'x'] },
    ],
  );
});
