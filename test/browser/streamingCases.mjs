// Browser check of the streaming markdown renderer (webview/streamingMarkdown.ts) on random messages and
// random chunkings: what it shows is what rendering the whole message at once gives, and a finished
// block, once rendered, is never rendered again. Registered by run.mjs.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadProbe } from './browser.mjs';
import { PROTOCOL, message as entry, panel } from './fixtures.mjs';

// Blocks that render the same cut apart as together (the splitter's own property test, blockSplitter.test.ts),
// with lists: a list continued after a blank line at column 0 is one loose list at once and two while
// streaming (the look the splitter accepts), so a list never follows a list here, indented blocks (which
// may continue its item) in between or not.
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
  fc.constantFrom(
    ' indented by one',
    '  two spaces',
    '```ts\nconst a = 1;\n\nconst b = 2;\n```',
    '~~~\nraw\n\n\ntext\n~~~',
    '    indented code',
    '- one\n- two\n  - nested',
    '1. first\n2. second',
  ),
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
      fc.asyncProperty(
        message,
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(400), { maxLength: 3 }),
        async (text, sizes, compared) => {
          const chunks = [];
          for (let at = 0, i = 0; at < text.length; i++) chunks.push(text.slice(at, (at += sizes[i % sizes.length])));
          const r = await page.evaluate(([c, k]) => window.__streamProbe(c, k), [chunks, compared]);
          segments = Math.max(segments, r.segments);
          groupSize = r.groupSize;
          assert.deepEqual(r.problems, []);
          assert.equal(r.shown, r.whole, `for ${JSON.stringify(text)} in ${JSON.stringify(chunks)}`);
        },
      ),
      { numRuns: 150 },
    );
    // The long messages filled more than one group.
    assert.ok(segments > groupSize, `at most ${segments} finished segments in a message, groups of ${groupSize}`);
  });

  test('a streamed answer is laid out like the same answer rendered whole: its blocks keep their spacing', async ({ open }) => {
    const { page, send, flush } = await open();
    const text = '# Plan\n\nFirst paragraph.\n\n- one\n- two\n\nSecond paragraph.\n\n```ts\nconst a = 1;\n```\n\nLast line.';
    await send({ type: 'snapshot', protocol: PROTOCOL, entries: [entry('agent_message', 'whole', text), entry('agent_message', 'streamed', '')], panel: panel({ turn: 'busy' }) });
    // In pieces that end mid-block and at block ends, each drawn before the next: finished blocks are
    // frozen into segments wherever a piece ended.
    for (let at = 0; at < text.length; at += 7) {
      await send({ type: 'patch', ops: [{ op: 'appendText', key: 'streamed', text: text.slice(at, at + 7) }] });
      await flush();
    }
    await page.waitForFunction(
      () =>
        document.querySelector('[data-key="streamed"] .markdown')?.textContent?.replace(/\s+/g, '') ===
        document.querySelector('[data-key="whole"] .markdown')?.textContent?.replace(/\s+/g, ''),
      text,
    );
    const layout = (key) =>
      page.evaluate((k) => {
        const md = document.querySelector(`[data-key="${k}"] .markdown`);
        const top = md.getBoundingClientRect().top;
        const blocks = [...md.querySelectorAll('h1, p, ul, .code-block, pre')].filter((b) => !b.parentElement.closest('li, .code-block'));
        return { height: Math.round(md.getBoundingClientRect().height), blocks: blocks.map((b) => `${b.tagName} ${Math.round(b.getBoundingClientRect().top - top)}`) };
      }, key);
    const whole = await layout('whole');
    assert.ok(whole.blocks.length >= 6, JSON.stringify(whole));
    assert.deepEqual(await layout('streamed'), whole);
  });

  test("the turn's spinner rests while an answer's text streams steadily, and turns again when it pauses", async ({ open }) => {
    const { page, send } = await open();
    await send({ type: 'snapshot', protocol: PROTOCOL, entries: [entry('agent_message', 'a', '')], panel: panel({ turn: 'busy' }) });
    const spinner = () =>
      page.evaluate(() => {
        const s = document.querySelector('.turn .codicon-modifier-spin');
        return s ? getComputedStyle(s).animationPlayState : 'none';
      });
    assert.equal(await spinner(), 'running', 'a busy turn with nothing streaming spins');
    // Text every 40 ms, as an agent streams, until the panel calls the stream steady (after 2 s of it).
    let steady = false;
    for (let i = 0; i < 200 && !steady; i++) {
      await send({ type: 'patch', ops: [{ op: 'appendText', key: 'a', text: `word ${i} ` }] });
      await page.waitForTimeout(40); // the stream's pace, not a wait for a fact
      steady = (await spinner()) === 'paused';
    }
    assert.ok(steady, 'the spinner rested while the text streamed steadily');
    // The text stops: the spinner turns again (the agent works on something the text does not show).
    await page.waitForFunction(() => {
      const s = document.querySelector('.turn .codicon-modifier-spin');
      return s !== null && getComputedStyle(s).animationPlayState === 'running';
    });
  });
}
