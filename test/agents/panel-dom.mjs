// Reading and driving the chat webview for the real-panel stage (panel-client.mjs), through Playwright.
import { chatFrame, paletteCommand, reloadWindow } from '../e2e/host.mjs';
import { until } from '../helpers/until.mjs';

/** The panel's state as the user sees it: turn badge, error banner, a pending permission, notices. */
export function panelStatus(frame) {
  return frame.evaluate(() => {
    const turn = document.querySelector('.panel-header .turn');
    const banner = document.querySelector('.banner');
    const notices = document.querySelector('.notices');
    return {
      turn: turn?.className ?? '',
      turnText: turn?.textContent?.trim() ?? '',
      banner: banner && !banner.hidden && banner.textContent?.trim() ? banner.textContent.trim() : null,
      permission: document.querySelector('.permission.active [data-option-id]') !== null,
      question: document.querySelector('form.eli-form[data-request-id]') !== null,
      // The panel's own count: entries far from the viewport are not in the document (webview/farEntries.ts).
      entries: globalThis.__acpChat?.transcript.views.length ?? document.querySelectorAll('[data-key]').length,
      notices: notices?.textContent?.trim() ?? '',
    };
  });
}

/**
 * Answers the active (oldest) permission request with its allow option, chosen by kind (ids differ per
 * agent): by clicking the button, or by pressing its number with the focus in the transcript.
 * Waits until the request's card is gone; returns how it was answered.
 */
export async function answerPermission(page, frame, how) {
  const card = frame.locator('.permission.active').first();
  const requestId = await card.getAttribute('data-request-id');
  const kinds = await card.locator('[data-option-id]').evaluateAll((els) => els.map((e) => e.className));
  let i = kinds.findIndex((c) => /\bperm-allow_once\b/.test(c));
  if (i < 0) i = kinds.findIndex((c) => /\bperm-allow/.test(c));
  if (i < 0) throw new Error(`no allow option in the permission request (${kinds.join(', ')})`);
  if (how === 'click') await card.locator('[data-option-id]').nth(i).click();
  else {
    await frame.locator('.transcript').focus();
    await page.keyboard.press(String(i + 1));
  }
  await frame.locator(`.permission[data-request-id=${JSON.stringify(requestId)}]`).waitFor({ state: 'detached', timeout: 15_000 });
  return `${how} ${i + 1}`;
}

/**
 * Answers the oldest open question card (an agent's form elicitation) by choosing `choice` and accepting:
 * by clicking the choice and Accept, or from the keyboard only, the way a keyboard user gets there from
 * the prompt box: Shift+Tab back into the card's choices, Space and arrows to the choice, Tab to Accept,
 * Enter. `shown` runs once the card is in view (a screenshot). Waits until the form is gone; returns how it
 * was answered.
 */
export async function answerQuestion(page, frame, { how, choice, shown }) {
  const form = frame.locator('form.eli-form[data-request-id]').first();
  const requestId = await form.getAttribute('data-request-id');
  await form.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shown?.();
  let steps = '';
  if (how === 'click') {
    await form.getByRole('radio', { name: choice, exact: true }).click();
    await form.getByRole('button', { name: 'Accept' }).click();
  } else {
    const focused = () =>
      form.evaluate((el) => {
        const a = document.activeElement;
        if (!a || !el.contains(a)) return { inForm: false };
        const label = a.id ? (document.querySelector(`label[for="${a.id}"]`)?.textContent ?? '') : '';
        return { inForm: true, type: a.getAttribute('type') ?? a.tagName.toLowerCase(), text: (a.textContent ?? '').trim(), label, checked: a.checked === true };
      });
    const press = async (key, until, max) => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press(key);
        const f = await focused();
        if (until(f)) return i + 1;
      }
      throw new Error(`${key} x${max} did not reach the question's ${until.what}: focus ${JSON.stringify(await focused())}`);
    };
    const onRadio = Object.assign((f) => f.inForm && f.type === 'radio', { what: 'choices' });
    const chosen = Object.assign((f) => f.inForm && f.type === 'radio' && f.checked && f.label === choice, { what: `"${choice}"` });
    const onAccept = Object.assign((f) => f.inForm && f.text === 'Accept', { what: 'Accept button' });
    await frame.locator('textarea[aria-label="Prompt"]').focus();
    const back = await press('Shift+Tab', onRadio, 25);
    await page.keyboard.press('Space');
    const arrows = chosen(await focused()) ? 0 : await press('ArrowDown', chosen, 10);
    const ahead = await press('Tab', onAccept, 10);
    await page.keyboard.press('Enter');
    steps = ` (Shift+Tab x${back}, Space, ArrowDown x${arrows}, Tab x${ahead}, Enter)`;
  }
  await frame.locator(`form.eli-form[data-request-id=${JSON.stringify(requestId)}]`).waitFor({ state: 'detached', timeout: 15_000 });
  return `${how} "${choice}"${steps}`;
}

/**
 * Every entry of the transcript in order: kind, key and visible text (tool cards without their raw JSON and
 * permission buttons), tool title, status and whether a diff is shown. Entries are built lazily when they
 * come near the viewport, so each is scrolled to and waited for.
 */
export function renderedEntries(frame) {
  return frame.evaluate(async () => {
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const out = [];
    // Entries far from the viewport are not in the document (webview/farEntries.ts): walk the panel's
    // own list of keys, and put each back where it belongs by scrolling to it, as a user would.
    const keyed = () => [...document.querySelectorAll('[data-key]')].filter((el) => el instanceof HTMLElement);
    const keys = globalThis.__acpChat?.transcript.views.map((v) => v.key) ?? keyed().map((el) => el.dataset['key']);
    for (const key of keys) {
      const find = () => keyed().find((e) => e.dataset['key'] === key);
      if (!find()) globalThis.__acpChat?.transcript.reveal(key, false);
      const el = find();
      if (!el) continue;
      el.scrollIntoView({ block: 'nearest' });
      for (let i = 0; i < 60 && el.classList.contains('placeholder'); i++) await nextFrame();
      // innerText needs the layout of the frame after the scroll.
      await nextFrame();
      await nextFrame();
      const kind = el.dataset['kind'] ?? '';
      let text;
      if (kind === 'tool_call') {
        const clone = el.cloneNode(true);
        if (clone instanceof HTMLElement) clone.querySelectorAll('.tool-raw, .permission-slot, .tool-head').forEach((n) => n.remove());
        text = clone.textContent ?? '';
      } else text = (el.querySelector('.entry-body') ?? el).textContent ?? '';
      const card = el.querySelector('.tool-card');
      out.push({
        kind,
        key: el.dataset['key'] ?? '',
        text,
        placeholder: el.classList.contains('placeholder'),
        title: el.querySelector('.tool-title')?.textContent ?? null,
        status: card instanceof HTMLElement ? (card.dataset['status'] ?? null) : null,
        diff: el.querySelector('.tool-diff') !== null,
        // The tool's output as laid out (innerText keeps the line breaks a <pre> shows and a paragraph loses).
        output: [...el.querySelectorAll('.tool-content, .tool-terminal')].map((n) => (n instanceof HTMLElement ? n.innerText : '')).join('\n'),
        // Markdown that was rendered, not shown as source: the element names inside the body.
        markup: [...new Set([...el.querySelectorAll('.entry-body strong, .entry-body em, .entry-body ol, .entry-body ul, .entry-body code')].map((n) => n.tagName.toLowerCase()))],
      });
    }
    return out;
  });
}

/**
 * A window reload as a user makes it: the workbench's Reload Window, which saves the window's state (its
 * tabs) first. A browser reload may not get to write it on a busy machine, and the chat's tab is then not
 * restored at all (CI once saw an empty editor area after one).
 */
export function reloadBySaving(page) {
  return reloadWindow(page, (title) => paletteCommand(page, title));
}

/**
 * Reloads the window and waits until the chat is back and idle with the entries `selector` finds (an
 * error banner ends the wait and is thrown). Returns the new chat frame and the keys of those entries.
 */
export async function reloadAndFind(page, selector, what) {
  await reloadBySaving(page);
  const frame = await chatFrame(page, 60_000);
  const found = () => frame.locator(selector);
  let s = await panelStatus(frame);
  const restored = async () => {
    s = await panelStatus(frame);
    return Boolean(s.banner) || (/turn-idle/.test(s.turn) && (await found().count()) > 0);
  };
  await until(restored, () => `no ${what} after the reload (${s.turnText}, ${s.entries} entries)`, 120_000);
  if (s.banner) throw new Error(`error banner after the reload: ${s.banner}`);
  return { frame, keys: await found().evaluateAll((els) => els.map((el) => el.getAttribute('data-key'))) };
}
