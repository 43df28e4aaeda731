// Tool output shapes: what a card shows as terminal output when an agent puts it only in rawOutput, and
// which plain tool text is Markdown. Checked on explicit shapes and on the recorded real-agent transcripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../src/common/store';
import { looksLikeMarkdown, metaTerminalOf, toolOutputOf } from '../../src/common/toolOutput';
import { toViewEntry, type ViewToolCall } from '../../src/common/webview/viewEntry';

test('the well-known rawOutput shapes give their text and exit code', () => {
  // Codex: interleaved output preferred over the streams.
  assert.deepEqual(toolOutputOf({ stdout: 'out\n', stderr: 'err\n', aggregated_output: 'out\nerr\n', formatted_output: 'out\n', exit_code: 2 }), {
    text: 'out\nerr\n',
    exitCode: 2,
  });
  assert.deepEqual(toolOutputOf({ formatted_output: 'fmt', exit_code: 0 }), { text: 'fmt', exitCode: 0 });
  assert.deepEqual(toolOutputOf({ stdout: 'a', stderr: 'b', exit_code: 1 }), { text: 'a\nb', exitCode: 1 });
  assert.deepEqual(toolOutputOf({ stdout: '', stderr: '', exitCode: 0 }), { text: '', exitCode: 0 });
  // OpenCode.
  assert.deepEqual(toolOutputOf({ output: 'x\ny\n', metadata: { exit: 0 } }), { text: 'x\ny\n', exitCode: 0 });
  // Text content blocks: bare, MCP-style and ACP-wrapped.
  assert.deepEqual(
    toolOutputOf([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]),
    { text: 'one\ntwo', exitCode: null },
  );
  assert.deepEqual(toolOutputOf({ content: [{ type: 'text', text: 'mcp' }] }), { text: 'mcp', exitCode: null });
  assert.deepEqual(toolOutputOf([{ type: 'content', content: { type: 'text', text: 'acp' } }]), { text: 'acp', exitCode: null });
  assert.deepEqual(toolOutputOf('plain'), { text: 'plain', exitCode: null });
  assert.deepEqual(toolOutputOf({ exit_code: 0 }), { text: '', exitCode: 0 });
  // Anything else stays behind the raw toggle.
  for (const other of [null, undefined, 42, {}, { success: true, message: 'Configuration updated' }, [{ type: 'image', data: '' }], [], { exit_code: 'x' }]) {
    assert.equal(toolOutputOf(other), null, JSON.stringify(other));
  }
});

test('every Codex shell call in the recorded transcript shows its output from rawOutput', () => {
  const file = path.resolve(__dirname, '../fixtures/transcripts/codex.jsonl');
  const store = new MessageStore();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((l, i) => l.trim() && store.ingestLine(l, i + 1));
  const calls = store
    .sessions()
    .flatMap((s) => s.entries)
    .filter((e) => e.kind === 'tool_call' && e.toolKind === 'execute');
  assert.ok(calls.length > 0, 'the transcript has shell calls');
  for (const c of calls) {
    assert.ok(c.kind === 'tool_call');
    assert.equal(c.content.filter((x) => x.type === 'content').length, 0, 'Codex sends no content of its own');
    const out = toolOutputOf(c.rawOutput);
    assert.ok(out, `output of ${c.title}`);
    assert.equal(out.exitCode, 0);
    assert.match(out.text, /shell-ok/);
  }
});

test('Codex 2.6 streams shell output in _meta.terminal_output_delta for terminals the client never created: the cards show it', () => {
  const file = path.resolve(__dirname, '../fixtures/transcripts/codex-next.jsonl');
  const store = new MessageStore();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((l, i) => l.trim() && store.ingestLine(l, i + 1));
  assert.deepEqual(
    store.diagnostics().filter((d) => d.severity === 'error'),
    [],
  );
  const views = store
    .sessions()
    .flatMap((s) => s.entries)
    .filter((e) => e.kind === 'tool_call')
    .map((e) => toViewEntry(e) as ViewToolCall);
  // The shell: a `{type:"terminal"}` block naming `call_…`, its pieces joined, and the exit from terminal_exit.
  const shell = views.find((v) => v.content.some((c) => c.type === 'terminal'));
  assert.deepEqual(shell?.metaTerminal, { data: 'hello\nupdated by mock agent\nshell-ok\n', exitCode: 0 });
  // The read: no content, rawOutput `{exit_code: 0}` only; the streamed output is its printed output.
  const read = views.find((v) => v.toolKind === 'read');
  assert.deepEqual(read?.output, { text: 'hello\n', exitCode: 0 });
  // Pieces of both keys, and nothing at all.
  assert.deepEqual(metaTerminalOf({ terminal_output_delta: { terminal_id: 't', data: 'a' }, terminal_exit: { terminal_id: 't', exit_code: 3, signal: null } }), {
    data: 'a',
    exitCode: 3,
  });
  assert.deepEqual(metaTerminalOf({ terminal_info: { terminal_id: 't' } }), undefined);
  assert.deepEqual(metaTerminalOf(null), undefined);
});

test('only fenced tool text counts as Markdown; printed output keeps its line breaks', () => {
  assert.equal(looksLikeMarkdown('```console\nhello\nshell-ok\n```'), true);
  assert.equal(looksLikeMarkdown('intro\n~~~\ncode\n~~~'), true);
  assert.equal(looksLikeMarkdown('hello\nupdated by mock agent\nshell-ok\n'), false);
  assert.equal(looksLikeMarkdown('[\n  {\n    "content": "Read notes.txt"\n  }\n]'), false);
  assert.equal(looksLikeMarkdown('# My Project\n\nThis is a sample project...'), false);
});
