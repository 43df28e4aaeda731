// Browser check of the streaming markdown renderer (webview/streamingMarkdown.ts) on random messages and
// random chunkings: what it shows is what rendering the whole message at once gives, and a finished
// block, once rendered, is never rendered again. Registered by run.mjs.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadProbe } from './browser.mjs';

// Blocks that render the same cut apart as together (the splitter's own property test, blockSplitter.test.ts),
// with lists: a list continued after a blank line at column 0 is one loose list at once and two while
// streaming (the look the splitter accepts), so a list never follows a list here, indented blocks (which
// may continue its item) in between or not.
const block = fc.oneof(
  fc.constantFrom('# Title', '## Sub *heading*', 'Plain paragraph with `code` and **bold**.', 'Line one\nline two', '> quoted\n> text', '---', '| a | b |\n| - | - |\n| 1 | 2 |', 'see https://example.com now'),
  fc.constantFrom(' indented by one', '  two spaces', '```ts\nconst a = 1;\n\nconst b = 2;\n```', '~~~\nraw\n\n\ntext\n~~~', '    indented code', '- one\n- two\n  - nested', '1. first\n2. second'),
  fc.stringMatching(/^[a-z ]{1,20}$/),
);
const isList = (b) => /^(- |1\. )/.test(b);
const noListAfterList = (blocks) => {
  let inList = false;
  return blocks.filter((b) => {
    if (isList(b) && inList) return false;
    if (!b.startsWith(' ')) inList = isList(b);
    return true;
  });
};
const message = fc.array(block, { minLength: 1, maxLength: 120, size: 'max' }).map((blocks) => noListAfterList(blocks).join('\n\n'));

export function register(test) {
  test('streamed markdown shows what the whole message renders to, and never re-renders a finished block (property)', async ({ open }) => {
    const { page } = await open();
    await loadProbe(page, 'streamingProbe.mjs');
    let segments = 0;
    let groupSize = Infinity;
    await fc.assert(
      fc.asyncProperty(message, fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(400), { maxLength: 3 }), async (text, sizes, compared) => {
        const chunks = [];
        for (let at = 0, i = 0; at < text.length; i++) chunks.push(text.slice(at, (at += sizes[i % sizes.length])));
        const r = await page.evaluate(([c, k]) => window.__streamProbe(c, k), [chunks, compared]);
        segments = Math.max(segments, r.segments);
        groupSize = r.groupSize;
        assert.deepEqual(r.problems, []);
        assert.equal(r.shown, r.whole, `for ${JSON.stringify(text)} in ${JSON.stringify(chunks)}`);
      }),
      { numRuns: 150 },
    );
    // The long messages filled more than one group.
    assert.ok(segments > groupSize, `at most ${segments} finished segments in a message, groups of ${groupSize}`);
  });
}
