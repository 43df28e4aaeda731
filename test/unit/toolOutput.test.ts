// Tool output shapes: what a card shows as terminal output when an agent puts it only in rawOutput, and
// which plain tool text is Markdown. Checked on explicit shapes and on the recorded real-agent transcripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../src/common/store';
import { looksLikeMarkdown, toolOutputOf } from '../../src/common/toolOutput';

test('the well-known rawOutput shapes give their text and exit code', () => {
  // Codex: interleaved output preferred over the streams.
  assert.deepEqual(toolOutputOf({ stdout: 'out\n', stderr: 'err\n', aggregated_output: 'out\nerr\n', formatted_output: 'out\n', exit_code: 2 }), { text: 'out\nerr\n', exitCode: 2 });
  assert.deepEqual(toolOutputOf({ formatted_output: 'fmt', exit_code: 0 }), { text: 'fmt', exitCode: 0 });
  assert.deepEqual(toolOutputOf({ stdout: 'a', stderr: 'b', exit_code: 1 }), { text: 'a\nb', exitCode: 1 });
  assert.deepEqual(toolOutputOf({ stdout: '', stderr: '', exitCode: 0 }), { text: '', exitCode: 0 });
  // OpenCode.
  assert.deepEqual(toolOutputOf({ output: 'x\ny\n', metadata: { exit: 0 } }), { text: 'x\ny\n', exitCode: 0 });
  // Text content blocks: bare, MCP-style and ACP-wrapped.
  assert.deepEqual(toolOutputOf([{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }]), { text: 'one\ntwo', exitCode: null });
  assert.deepEqual(toolOutputOf({ content: [{ type: 'text', text: 'mcp' }] }), { text: 'mcp', exitCode: null });
  assert.deepEqual(toolOutputOf([{ type: 'content', content: { type: 'text', text: 'acp' } }]), { text: 'acp', exitCode: null });
  assert.deepEqual(toolOutputOf('plain'), { text: 'plain', exitCode: null });
  // Anything else stays behind the raw toggle.
  for (const other of [null, undefined, 42, {}, { success: true, message: 'Configuration updated' }, [{ type: 'image', data: '' }], [], { exit_code: 'x' }]) {
    assert.equal(toolOutputOf(other), null, JSON.stringify(other));
  }
});

test("every Codex shell call in the recorded transcript shows its output from rawOutput", () => {
  const file = path.resolve(__dirname, '../fixtures/transcripts/codex.jsonl');
  const store = new MessageStore();
  readFileSync(file, 'utf8').split('\n').forEach((l, i) => l.trim() && store.ingestLine(l, i + 1));
  const calls = store.sessions().flatMap((s) => s.entries).filter((e) => e.kind === 'tool_call' && e.toolKind === 'execute');
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

test('only fenced tool text counts as Markdown; printed output keeps its line breaks', () => {
  assert.equal(looksLikeMarkdown('```console\nhello\nshell-ok\n```'), true);
  assert.equal(looksLikeMarkdown('intro\n~~~\ncode\n~~~'), true);
  assert.equal(looksLikeMarkdown('hello\nupdated by mock agent\nshell-ok\n'), false);
  assert.equal(looksLikeMarkdown('[\n  {\n    "content": "Read notes.txt"\n  }\n]'), false);
  assert.equal(looksLikeMarkdown('# My Project\n\nThis is a sample project...'), false);
});
