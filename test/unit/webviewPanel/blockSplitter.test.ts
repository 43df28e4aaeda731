import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { BlockSplitter } from '../../../webview/blockSplitter';

const md = new MarkdownIt({ html: false, linkify: true });

function cutsWhileStreaming(text: string, chunk: number): number[] {
  const s = new BlockSplitter();
  const cuts: number[] = [];
  for (let i = chunk; i < text.length + chunk; i += chunk) cuts.push(s.update(text.slice(0, Math.min(i, text.length))));
  return cuts;
}

test('cuts before a new paragraph once its first character has arrived', () => {
  const s = new BlockSplitter();
  assert.equal(s.update('First.\n'), 0);
  assert.equal(s.update('First.\n\n'), 0, 'the next line may still be indented');
  assert.equal(s.update('First.\n\nS'), 'First.\n\n'.length);
});

test('never cuts inside a code fence, even across blank lines', () => {
  const text = 'Intro\n\n```py\ndef f():\n\n    return 1\n\nx = 2\n```\n\nAfter';
  const cuts = new Set(cutsWhileStreaming(text, 3));
  const fenceStart = text.indexOf('```');
  const fenceEnd = text.indexOf('```\n\nAfter') + 3;
  for (const c of cuts) assert.ok(c <= fenceStart || c > fenceEnd, `cut ${c} inside the fence`);
  assert.ok(cuts.has(text.indexOf('After')), 'cuts after the fence closes');
  assert.ok(cuts.has(fenceStart), 'cuts before the fence');
});

test("does not cut before a list item's indented paragraph or an indented code line", () => {
  const s = new BlockSplitter();
  assert.equal(s.update('- item\n\n  continued\n'), 0);
  assert.equal(s.update('- item\n\n  continued\n\n    code\n'), 0);
  assert.equal(s.update('- item\n\n  continued\n\n    code\n\nAfter'), '- item\n\n  continued\n\n    code\n\n'.length, 'column 0 ends the list');
  assert.equal(new BlockSplitter().update('    code\n\n    more code\n'), 0);
});

test('outside lists a paragraph indented by a space still starts a new block', () => {
  const s = new BlockSplitter();
  assert.equal(s.update('Para one.\n\n word'), 'Para one.\n\n'.length);
});

test('a longer closing fence closes; a different fence char does not', () => {
  const s = new BlockSplitter();
  const text = '~~~\na\n\n```\n\nb\n~~~~\n\nend';
  assert.equal(s.update(text), text.indexOf('end'));
  assert.equal(new BlockSplitter().update('~~~\na\n\nb'), 0);
});

// The property the incremental renderer relies on: rendering the frozen prefix and the tail separately
// gives the same HTML as rendering the whole message, for every prefix seen while streaming.
const block = fc.oneof(
  fc.constantFrom(
    '# Title',
    '## Sub *heading*',
    'Plain paragraph with `code` and **bold**.',
    'Line one\nline two',
    '> quoted\n> text',
    '---',
    '| a | b |\n| - | - |\n| 1 | 2 |',
    'see https://example.com now',
  ),
  fc.constantFrom(' indented by one', '  two spaces', '```ts\nconst a = 1;\n\nconst b = 2;\n```', '~~~\nraw\n\n\ntext\n~~~', '    indented code', '```\nunclosed'),
  fc.stringMatching(/^[a-z ]{1,20}$/),
);

test('prefix + tail renders exactly like the whole text (property)', () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 9 }), (blocks, chunk) => {
      const text = blocks.join('\n\n') + '\n';
      const s = new BlockSplitter();
      for (let i = chunk; i < text.length + chunk; i += chunk) {
        const seen = text.slice(0, Math.min(i, text.length));
        const cut = s.update(seen);
        if (cut === 0) continue;
        // Unclosed fences run to the end of the text; only compare once the whole fence is inside the prefix.
        assert.equal(md.render(seen.slice(0, cut)) + md.render(seen.slice(cut)), md.render(seen), `cut ${cut} of ${JSON.stringify(seen)}`);
      }
    }),
    { numRuns: 300 },
  );
});

// The streaming renderer feeds only its open block and drops what it froze: the cuts must be the ones
// found by feeding the whole text, for any chunking.
test('fed only the text after its last cut (drop), it cuts where it cuts fed the whole text (property)', () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }), (blocks, sizes) => {
      const text = blocks.join('\n\n') + '\n';
      const whole = new BlockSplitter();
      const open = new BlockSplitter();
      let dropped = 0;
      for (let at = 0, i = 0; at < text.length; i++) {
        at = Math.min(text.length, at + sizes[i % sizes.length]!);
        const cut = open.update(text.slice(dropped, at));
        assert.equal(dropped + cut, whole.update(text.slice(0, at)), `at ${at} of ${JSON.stringify(text)}`);
        open.drop(cut);
        dropped += cut;
      }
    }),
    { numRuns: 300 },
  );
});

test('drop refuses to go past the safe cut', () => {
  const s = new BlockSplitter();
  assert.equal(s.update('One.\n\nTwo'), 6);
  assert.throws(() => s.drop(7), RangeError);
  s.drop(6);
  assert.equal(s.update('Two.\n\nThree'), 6, 'offsets count from the dropped part');
});
