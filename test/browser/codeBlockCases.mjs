// Browser checks of code blocks in answers (issue 41, "code you can use"): colours from the theme through
// the lazily loaded highlighter (dist/highlight.js, requested only when a code block is drawn), built as
// spans from text (an agent's markup stays text), and Copy, Insert at Cursor and Apply to File on each
// block (Apply only where the block names its file). Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { message, panel, snapshot, patch } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const ANSWER = [
  'Here is the fix.',
  '',
  'path: src/greet.ts',
  '```ts',
  '// Greets someone by name.',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}! <img src=x onerror=alert(1)>`;',
  '}',
  'const answer = 42;',
  '```',
  '',
  'Then run:',
  '',
  '```bash',
  'npm test -- --grep "greet"',
  '```',
  '',
].join('\n');

const highlighterRequested = (page) => page.evaluate(() => [...document.scripts].some((s) => s.src.endsWith('/dist/highlight.js')));

export function register(test) {
  test('code blocks: the highlighter loads on the first code block only, and colours it with theme colours from text', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    await send(snapshot([message('user_message', 'u1', 'Fix greet'), message('agent_message', 'a0', 'No code in this answer.')], panel()));
    await flush();
    assert.equal(await highlighterRequested(page), false, 'no code block, no highlighter');
    await send(patch({ op: 'insert', index: 2, entry: message('agent_message', 'a1', ANSWER) }));
    await flush();
    assert.equal(await highlighterRequested(page), true);
    const code = page.locator('[data-key="a1"] .code-block code').first();
    await page.waitForFunction(() => document.querySelector('[data-key="a1"] .code-block code')?.classList.contains('hl'));
    // The agent's markup in a string is text inside a string span, never an element.
    assert.equal(await page.locator('[data-key="a1"] .code-block img').count(), 0);
    assert.match(await code.locator('.hl-string').first().innerText(), /onerror=alert/);
    // Exactly the code the agent wrote, character for character.
    assert.equal(await code.textContent(), ANSWER.split('```ts\n')[1].split('```')[0]);
    // Keywords, comments and function names take the theme's colours.
    const colour = (sel) =>
      code
        .locator(sel)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    assert.equal(await colour('.hl-keyword'), 'rgb(197, 134, 192)'); // --vscode-debugTokenExpression-name (dark)
    assert.equal(await colour('.hl-number'), 'rgb(181, 206, 168)');
    assert.notEqual(await colour('.hl-comment'), await colour('.hl-keyword'));
    // The bash block too, maybe a task later: blocks drawn before the highlighter came are coloured a few per task.
    await page.locator('[data-key="a1"] .code-block').nth(1).locator('code.hl').waitFor();
    assert.deepEqual(errors, []);
  });

  test('code blocks: forty blocks in eight languages drawn before the highlighter came are all coloured, each exactly its code', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    const samples = {
      ts: 'const a: number = 1;',
      python: 'def f(x):\n    return x + 1',
      rust: 'fn main() { let v = vec![1, 2]; }',
      go: 'func main() { fmt.Println("hi") }',
      sql: "SELECT id FROM users WHERE name = 'x';",
      java: 'public class A { int b = 2; }',
      yaml: 'key: value\nlist:\n  - 1',
      cpp: '#include <vector>\nint main() { return 0; }',
    };
    const blocks = Array.from({ length: 40 }, (_, i) => {
      const [lang, code] = Object.entries(samples)[i % 8];
      return { lang, code: `${code} // ${i}` };
    });
    const answer = blocks.map((b) => `Block:\n\n\`\`\`${b.lang}\n${b.code}\n\`\`\`\n`).join('\n');
    await send(snapshot([message('agent_message', 'a1', answer)], panel()));
    await flush();
    await page.waitForFunction(() => document.querySelectorAll('[data-key="a1"] code.hl').length === 40);
    const texts = await page.locator('[data-key="a1"] .code-block code').allTextContents();
    assert.deepEqual(
      texts.map((t) => t.replace(/\n$/, '')),
      blocks.map((b) => b.code),
    );
    assert.ok((await page.locator('[data-key="a1"] code [class^="hl-"]').count()) >= 40, 'each block has coloured spans');
    assert.deepEqual(errors, []);
  });

  test('code blocks: Copy, Insert at cursor, and Apply where the block names a file', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(snapshot([message('agent_message', 'a1', ANSWER)], panel()));
    await flush();
    const [tsBlock, bashBlock] = [page.locator('[data-key="a1"] .code-block').nth(0), page.locator('[data-key="a1"] .code-block').nth(1)];
    assert.equal(await tsBlock.locator('.code-lang').innerText(), 'src/greet.ts');
    assert.equal(await bashBlock.getByRole('button', { name: /Apply/ }).count(), 0, 'a block that names no file offers no Apply');
    await clearPosted();
    const code = ANSWER.split('```ts\n')[1].split('```')[0];
    await tsBlock.getByRole('button', { name: 'Copy code' }).click();
    await tsBlock.getByRole('button', { name: 'Insert at cursor' }).click();
    await tsBlock.getByRole('button', { name: 'Apply to greet.ts…' }).click();
    assert.deepEqual(await posted(), [
      { type: 'copy', text: code },
      { type: 'insertCode', text: code },
      { type: 'applyCode', path: 'src/greet.ts', text: code },
    ]);
    assert.deepEqual(errors, []);
  });

  test('code blocks: a streaming block is coloured as it grows; an unknown language stays plain', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    await send(snapshot([message('agent_message', 'a1', 'Try:\n\n```python\ndef f():\n')], panel({ turn: 'busy' })));
    await flush();
    await page.waitForFunction(() => document.querySelector('[data-key="a1"] code')?.classList.contains('hl'));
    await send(patch({ op: 'appendText', key: 'a1', text: '    return None\n```\n\n```klingon\nqapla\n```\n' }));
    await flush();
    await page.waitForFunction(() => document.querySelector('[data-key="a1"] code .hl-literal, [data-key="a1"] code .hl-keyword') !== null);
    assert.match(await page.locator('[data-key="a1"] code').first().innerText(), /return None/);
    assert.equal(await page.locator('[data-key="a1"] .code-block').nth(1).locator('code.hl').count(), 0);
    assert.deepEqual(errors, []);
  });

  for (const theme of ['light', 'dark', 'high-contrast']) {
    test(`code blocks: screenshot (${theme})`, async ({ open }) => {
      const { page, send, flush, errors } = await open({ theme, height: 520 });
      await send(snapshot([message('user_message', 'u1', 'Make greet say hello'), message('agent_message', 'a1', ANSWER)], panel()));
      await flush();
      await page.waitForFunction(() => document.querySelectorAll('code.hl').length === 2);
      await page.evaluate(() => document.fonts.ready);
      mkdirSync(shots, { recursive: true });
      await page.locator('[data-key="a1"]').screenshot({ path: path.join(shots, `webview-code-blocks-${theme}.png`) });
      assert.deepEqual(errors, []);
    });
  }
}
