// The chat as a side-bar view: from 300 px wide and 250 px tall (a side bar sharing its height with
// another view, or a laptop's short window) the prompt box, Send and the transcript stay usable.
// Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { message, panel, showcase, snapshot } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');

/** Where the prompt box, Send and the conversation are, and whether anything scrolls that should not. */
function layout(page) {
  return page.evaluate(() => {
    const box = (s) => {
      const el = document.querySelector(s);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right), height: Math.round(r.height) };
    };
    const t = document.querySelector('textarea[aria-label="Prompt"]');
    const line = parseFloat(getComputedStyle(t).lineHeight);
    return {
      width: innerWidth,
      height: innerHeight,
      prompt: box('textarea[aria-label="Prompt"]'),
      send: box('button[aria-label="Send"]'),
      transcript: box('.transcript'),
      promptScrolls: t.scrollHeight > t.clientHeight,
      // More than one line of text inside the box: a wrapped placeholder, or a box grown for nothing.
      promptLines: Math.round((t.clientHeight - parseFloat(getComputedStyle(t).paddingTop) - parseFloat(getComputedStyle(t).paddingBottom)) / line),
      documentScrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
    };
  });
}

function assertUsable(l, where) {
  const s = JSON.stringify(l);
  assert.ok(l.prompt && l.prompt.top >= 0 && l.prompt.bottom <= l.height, `${where}: the prompt box is whole on screen: ${s}`);
  assert.ok(l.send && l.send.bottom <= l.height && l.send.right <= l.width, `${where}: Send is on screen: ${s}`);
  assert.equal(l.promptScrolls, false, `${where}: the empty prompt box shows no scroll arrows: ${s}`);
  assert.equal(l.promptLines, 1, `${where}: the placeholder fits one line: ${s}`);
  assert.equal(l.documentScrolls, false, `${where}: the view itself does not scroll: ${s}`);
  assert.ok(l.transcript && l.transcript.height >= 40, `${where}: the conversation keeps some room: ${s}`);
}

export function register(test) {
  test('side bar: at 300 × 250 px the prompt box, Send and the conversation fit (empty, and mid-turn with a plan and a permission)', async ({ open }) => {
    mkdirSync(shots, { recursive: true });
    for (const [width, height] of [
      [300, 250],
      [300, 400],
    ]) {
      const empty = await open({ width, height });
      await empty.send(snapshot([], panel({ turn: 'idle' })));
      await empty.flush();
      if (height === 250) await empty.page.screenshot({ path: path.join(shots, 'webview-sidebar-empty.png') });
      assertUsable(await layout(empty.page), `empty chat at ${width}×${height}`);

      const busy = await open({ width, height });
      const { entries, panel: p } = showcase();
      await busy.send(snapshot([...entries, message('agent_message', 'a9', 'Running the tests now.')], p));
      await busy.flush();
      if (height === 250) await busy.page.screenshot({ path: path.join(shots, 'webview-sidebar-busy.png') });
      assertUsable(await layout(busy.page), `mid-turn chat at ${width}×${height}`);
      // The permission question stays answerable: its primary button is on screen (scrolled to, if need be).
      const allow = busy.page.locator('.permission button', { hasText: 'Allow once' }).first();
      await allow.scrollIntoViewIfNeeded();
      const b = await allow.boundingBox();
      assert.ok(b && b.y >= 0 && b.y + b.height <= height, `Allow once is reachable at ${width}×${height}: ${JSON.stringify(b)}`);
    }
  });
}
