// Reported diffs to whole-file texts: whole-file diffs (Codex, Gemini CLI), fragments (Claude Code,
// OpenCode), several edits of one file, created files, and the cases where the previous text is unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byPath, reportedDiffs, reportedTexts, resolveDiffs } from '../../../src/common/changes/derive';
import type { Entry, ToolCallEntry } from '../../../src/common/store/model';
import { toolCallEntry } from '../helpers/toolCallEntry';

function tool(key: string, status: string, content: ToolCallEntry['content']): ToolCallEntry {
  return toolCallEntry(key, { status, content });
}
const diff = (path: string, oldText: string | null, newText: string) => ({ type: 'diff' as const, path, oldText, newText });

test('only completed tool calls count; a repeated diff counts once; grouped by path in first-seen order', () => {
  const entries: Entry[] = [
    tool('t1', 'failed', [diff('/a', 'x', 'y')]),
    tool('t2', 'completed', [diff('/b', '1', '2'), { type: 'content', content: { type: 'text', text: 'ok' } }]),
    tool('t3', 'completed', [diff('/a', 'p', 'q'), diff('/a', 'p', 'q')]),
    tool('t4', 'completed', [{ type: 'diff', changes: [{ operation: 'modify', path: '/c' }], patch: null }]),
    tool('t5', 'completed', [diff('/b', '2', '3')]),
  ];
  const got = byPath(reportedDiffs(entries));
  assert.deepEqual([...got.keys()], ['/b', '/a', '/c']);
  assert.deepEqual(
    got.get('/b')?.map((d) => reportedTexts(d).newText),
    ['2', '3'],
  );
  assert.equal(got.get('/a')?.length, 1);
  assert.deepEqual(got.get('/c'), [{ path: '/c', operation: 'modify', patch: null }]);
});

test('a whole-file diff: the file is its newText, the previous text is its oldText', () => {
  assert.deepEqual(resolveDiffs('hello\nmore\n', [{ path: '/a', oldText: 'hello\n', newText: 'hello\nmore\n' }]), {
    resolved: true,
    oldText: 'hello\n',
    agentText: 'hello\nmore\n',
  });
});

test("a fragment (Claude Code's Edit): the fragment is put back inside the file", () => {
  const r = resolveDiffs('hello\nupdated by mock agent\nbye\n', [{ path: '/a', oldText: 'hello', newText: 'hello\nupdated by mock agent' }]);
  assert.deepEqual(r, { resolved: true, oldText: 'hello\nbye\n', agentText: 'hello\nupdated by mock agent\nbye\n' });
});

test('several edits of one file are undone newest first', () => {
  const diffs = [
    { path: '/a', oldText: 'alpha', newText: 'ALPHA' },
    { path: '/a', oldText: 'ALPHA beta', newText: 'ALPHA BETA' },
  ];
  assert.deepEqual(resolveDiffs('ALPHA BETA gamma', diffs), { resolved: true, oldText: 'alpha beta gamma', agentText: 'ALPHA BETA gamma' });
});

test('a created file: the previous text is null (Undo deletes it)', () => {
  assert.deepEqual(resolveDiffs('new\n', [{ path: '/n', oldText: null, newText: 'new\n' }]), { resolved: true, oldText: null, agentText: 'new\n' });
});

test('unknown previous text: the file changed after the report, an ambiguous fragment, a missing file', () => {
  assert.deepEqual(resolveDiffs('something else', [{ path: '/a', oldText: 'x', newText: 'y' }]), { resolved: false });
  assert.deepEqual(resolveDiffs('y and y', [{ path: '/a', oldText: 'x', newText: 'y' }]), { resolved: false });
  assert.deepEqual(resolveDiffs(null, [{ path: '/a', oldText: 'x', newText: 'y' }]), { resolved: false });
  assert.deepEqual(resolveDiffs('a', [{ path: '/a', oldText: null, newText: 'b' }]), { resolved: false }, "a created file that is not the agent's text now");
  assert.deepEqual(resolveDiffs('a', []), { resolved: false });
});

/** The v2 diff the demo agent sends (its hunk says line 1; jsdiff finds where it fits). */
function v2(path: string, operation: string, patch: string | null): Entry {
  return tool('v2', 'completed', [{ type: 'diff', changes: [{ operation, path }], patch: patch === null ? null : { format: 'unified', text: patch } }]);
}

test('ACP v2 diffs: the patch is applied in reverse; an added file had no previous text', () => {
  const modify = byPath(reportedDiffs([v2('/w/demo-edit.txt', 'modify', ['--- a/demo-edit.txt', '+++ b/demo-edit.txt', '@@ -0,0 +1 @@', '+turn 2'].join('\n'))]));
  assert.deepEqual(resolveDiffs('turn 1\nturn 2\n', modify.get('/w/demo-edit.txt') ?? []), { resolved: true, oldText: 'turn 1\n', agentText: 'turn 1\nturn 2\n' });
  const add = byPath(reportedDiffs([v2('/w/new.txt', 'add', ['--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1 @@', '+hello'].join('\n'))]));
  assert.deepEqual(resolveDiffs('hello\n', add.get('/w/new.txt') ?? []), { resolved: true, oldText: null, agentText: 'hello\n' });
});

test('ACP v2 diffs without a patch, or a delete, or a patch that does not fit, leave the previous text unknown', () => {
  const none = reportedDiffs([v2('/w/a', 'modify', null)]);
  assert.deepEqual(resolveDiffs('x', none), { resolved: false });
  const del = reportedDiffs([v2('/w/a', 'delete', ['--- a/a', '+++ /dev/null', '@@ -1 +0,0 @@', '-x'].join('\n'))]);
  assert.deepEqual(resolveDiffs('x', del), { resolved: false });
  const misfit = reportedDiffs([v2('/w/a', 'modify', ['--- a/a', '+++ b/a', '@@ -1 +1 @@', '-old', '+new'].join('\n'))]);
  assert.deepEqual(resolveDiffs('something else entirely\n', misfit), { resolved: false });
  assert.deepEqual(reportedTexts(none[0]!), { oldText: null, newText: null });
});
