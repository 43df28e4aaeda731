// Browser checks for the chat panel webview: loads the built dist/webview.js in a test page that plays the
// host side of the contract, in headless Debian Chromium. Screenshots go to test-results/webview-*.png.
//   node test/browser/run.mjs [FILTER]      (last line: "N passed, N failed"; exit 1 on any failure)
// Long because it is the runner plus one short test per panel behaviour; the harness is in browser.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { registerA11yTests } from './a11y.mjs';
import { buildWebview, launch, openPanel } from './browser.mjs';
import { PROTOCOL, message, panel, showcase, toolCall, snapshot, patch } from './fixtures.mjs';
import { root, startServer } from './server.mjs';
import { register as registerTranscriptCases } from './transcriptCases.mjs';
import { register as registerChangesCases, registerNarrow as registerNarrowChangesCases } from './changesCases.mjs';
import { register as registerEditCases } from './editCases.mjs';
import { register as registerRerunCases } from './rerunCases.mjs';
import { register as registerScrollPinCases } from './scrollPinCases.mjs';
import { register as registerScrollRestoreCases } from './scrollRestoreCases.mjs';
import { register as registerMarkdownCases } from './markdownCases.mjs';
import { register as registerStreamingCases } from './streamingCases.mjs';
import { register as registerSideBarCases } from './sideBarCases.mjs';
import { register as registerHistoryCases } from './historyCases.mjs';
import { register as registerSubagentCases } from './subagentCases.mjs';
import { register as registerPolishCases } from './polishCases.mjs';
import { register as registerPlanCases } from './planCases.mjs';
import { register as registerSpaceCases, registerPaths as registerPathCases, registerSmallThings } from './spaceCases.mjs';
import { register as registerSubagentExpandCases } from './subagentExpandCases.mjs';
import { register as registerHostileCases } from './hostileCases.mjs';
import { register as registerCompactionCases } from './compactionCases.mjs';
import { register as registerRemoteCases } from './remoteCases.mjs';
import { register as registerCodeBlockCases } from './codeBlockCases.mjs';
import { register as registerContextCases } from './contextCases.mjs';
import { register as registerFirstFrameCases } from './firstFrameCases.mjs';
import { register as registerFoldCases } from './foldCases.mjs';
import { register as registerToolReviewCases } from './toolReviewCases.mjs';
import { register as registerElicitationCases, registerOnToolCards as registerToolCardQuestionCases, registerOrphans as registerOrphanQuestionCases } from './elicitationCases.mjs';

const filter = process.argv[2] ?? '';
const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const shots = path.join(root, 'test-results');

test('posts ready with the protocol version once the DOM is set up', async ({ open }) => {
  const { page, posted } = await open();
  const msgs = await posted();
  assert.deepEqual(msgs[0], { type: 'ready', protocol: PROTOCOL });
  assert.equal(await page.locator('textarea[aria-label="Prompt"]').count(), 1);
  assert.equal(await page.locator('button[aria-label="Send"]').count(), 1);
  assert.equal(await page.locator('button[aria-label="Cancel"]').count(), 1);
  // The conversation is not a live region (it would re-announce replaced content); one status region speaks.
  assert.equal(await page.locator('[aria-live]:not([aria-live="off"]) [role="article"], [role="log"], [role="application"]').count(), 0);
  assert.equal(await page.locator('[role="status"][aria-live="polite"][data-testid="announcer"]').count(), 1);
});

test('renders every entry type with stable selectors', async ({ open }) => {
  const { page, send, flush, errors, posted } = await open();
  const { entries, panel: p } = showcase();
  await send(snapshot(entries, p));
  await flush();
  for (const e of entries) {
    const el = page.locator(`section[aria-label="Conversation"] [role="article"][data-key="${e.key}"][data-kind="${e.kind}"]`);
    assert.equal(await el.count(), 1, `entry ${e.key}`);
  }
  assert.match(await page.locator('[data-key="u1"]').innerText(), /Fix the off-by-one/);
  assert.match(await page.locator('[data-key="u1"] .file-chip').innerText(), /range\.ts/);
  // The thought is followed by other entries: collapsed, with its duration.
  assert.match(await page.locator('[data-key="t1"] summary').innerText(), /Thought for 4 s/);
  assert.equal(await page.locator('[data-key="t1"] details').getAttribute('open'), null);
  // Agent markdown: code block with a copy button, a table.
  assert.equal(await page.locator('[data-key="a1"] .code-block pre code').count(), 1);
  assert.equal(await page.locator('[data-key="a1"] .code-copy').count(), 1);
  assert.equal(await page.locator('[data-key="a1"] table th').count(), 3);
  // Tool cards: kind icon, status badge, diff, terminal output, command.
  assert.equal(await page.locator('[data-key="tc1"] .codicon-go-to-file').count(), 1);
  assert.equal(await page.locator('[data-key="tc1"] .status').innerText(), 'Completed');
  assert.equal(await page.locator('[data-key="tc4"] .status').innerText(), 'Failed');
  assert.equal(await page.locator('[data-key="tc2"] .diff-add').count(), 1);
  assert.equal(await page.locator('[data-key="tc2"] .diff-del').count(), 1);
  assert.match(await page.locator('[data-key="tc3"] .terminal-output').innerText(), /node --test range/);
  assert.match(await page.locator('[data-key="tc3"] .tool-command').innerText(), /npm test -- range/);
  // Raw input behind a toggle: the JSON stays on the host (its size is shown) until the toggle opens,
  // then the webview asks for it once and shows it when it comes.
  const raw = page.locator('[data-key="tc1"] details.tool-raw');
  assert.equal(await raw.locator('pre').count(), 0);
  assert.match(await raw.locator('summary').innerText(), /Raw input \/ output · \d+ B/);
  await raw.locator('summary').click();
  assert.match(await raw.locator('pre').first().innerText(), /"path": "\/home\/dev\/app\/src\/range\.ts"/);
  assert.deepEqual(
    (await posted()).filter((m) => m.type === 'getRaw'),
    [{ type: 'getRaw', key: 'tc1' }],
  );
  await raw.locator('summary').click();
  await raw.locator('summary').click();
  assert.equal((await posted()).filter((m) => m.type === 'getRaw').length, 1, 'asked once while the raw data is unchanged');
  // Plan, mode, config, usage.
  assert.equal(await page.locator('.plan-item').count(), 3);
  assert.equal(await page.locator('select[aria-label="Mode"]').inputValue(), 'code');
  assert.equal(await page.locator('select[aria-label="Model"]').inputValue(), 'fast');
  assert.match(await page.locator('.usage').innerText(), /48k \/ 200k \(24%\) · 0\.42 USD/);
  assert.deepEqual(errors, [], 'no console errors (CSP violations show up here)');
});

test('agent markdown is sanitized: no script runs, no javascript: link navigates', async ({ open }) => {
  const { page, send, flush, posted, clearPosted } = await open();
  const evil = [
    'Hello <img src=x onerror="window.__pwned=1"> there',
    '',
    '<script>window.__pwned=2</script>',
    '',
    '[click me](javascript:window.__pwned=3) and [docs](https://example.com/docs) and <a href="javascript:window.__pwned=4">raw</a>',
    '',
    '![img](javascript:window.__pwned=5) ![remote](https://example.com/x.png) [file](src/app.ts#L7)',
  ].join('\n');
  await send(snapshot([message('agent_message', 'x1', evil)]));
  await flush();
  const md = page.locator('[data-key="x1"] .markdown');
  assert.equal(await md.locator('script').count(), 0);
  assert.equal(await md.locator('[onerror]').count(), 0);
  assert.equal(await md.locator('a[href^="javascript:" i]').count(), 0);
  assert.equal(await md.locator('img').count(), 0, 'no remote or script images (the CSP would block them anyway)');
  await clearPosted();
  const before = page.url();
  // Agent text that looks like a javascript: link is only text; clicking it does nothing.
  await md.getByText('click me').click();
  await md.getByRole('link', { name: 'docs' }).click();
  await md.getByRole('link', { name: 'file', exact: true }).click();
  await page.waitForFunction(() => window.__host.posted.length >= 2); // both link clicks were handled
  assert.equal(page.url(), before, 'the webview never navigates');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(await posted(), [
    { type: 'openLink', href: 'https://example.com/docs' },
    { type: 'openLocation', path: 'src/app.ts', line: 7 },
  ]);
});

test('appendText patches grow a message incrementally and touch no other entry', async ({ open }) => {
  const { page, send, flush } = await open();
  await send(snapshot([message('user_message', 'u1', 'Write two paragraphs'), message('agent_message', 'a1', 'First paragraph.\n\n')], panel({ turn: 'busy' })));
  await flush();
  await page.evaluate(() => {
    window.__userBody = document.querySelector('[data-key="u1"] .entry-body');
  });
  await send(patch({ op: 'appendText', key: 'a1', text: 'Second ' }, { op: 'appendText', key: 'a1', text: 'paragraph' }));
  await flush();
  assert.match(await page.locator('[data-key="a1"]').innerText(), /First paragraph\.\s+Second paragraph/);
  // The finished first paragraph is frozen DOM: remember it and check it survives further chunks.
  await page.evaluate(() => {
    window.__seg = document.querySelector('[data-key="a1"] .md-seg');
  });
  assert.ok(await page.evaluate(() => window.__seg !== null), 'first paragraph frozen');
  for (let i = 0; i < 20; i++) await send(patch({ op: 'appendText', key: 'a1', text: ` more${i}` }));
  await send(patch({ op: 'appendText', key: 'a1', text: '\n\n```js\nconst x = 1;\n```\n' }));
  await flush();
  // Text is drawn in the next animation frame: wait for it to be shown rather than read it once.
  await page.waitForFunction(() => /more19/.test(document.querySelector('[data-key="a1"]').innerText));
  assert.equal(await page.locator('[data-key="a1"] pre code').innerText(), 'const x = 1;\n');
  assert.ok(await page.evaluate(() => window.__seg.isConnected && window.__seg === document.querySelector('[data-key="a1"] .md-seg')), 'frozen block not re-rendered');
  assert.ok(await page.evaluate(() => window.__userBody === document.querySelector('[data-key="u1"] .entry-body')), 'other entry untouched');
  // Insert and replace work by key.
  await send(patch({ op: 'insert', index: 2, entry: toolCall('tc9', { title: 'Search', toolKind: 'search', status: 'in_progress' }) }));
  await send(patch({ op: 'replace', entry: toolCall('tc9', { title: 'Search', toolKind: 'search', status: 'completed' }) }));
  await flush();
  assert.equal(await page.locator('[data-key="tc9"] .status').innerText(), 'Completed');
});

test('raw input/output: asked for when opened, asked again when it changed while open', async ({ open }) => {
  const { page, send, flush, posted } = await open();
  const tc = toolCall('r1', { title: 'Run', toolKind: 'execute', status: 'in_progress', rawInput: { command: 'ls' } });
  await send(snapshot([tc]));
  await flush();
  assert.equal(await page.locator('[data-key="r1"] .tool-command').innerText(), '$ ls');
  const raw = page.locator('[data-key="r1"] details.tool-raw');
  await raw.locator('summary').click();
  await page.locator('[data-key="r1"] details.tool-raw pre').first().waitFor();
  assert.equal(await raw.locator('.raw-label').count(), 1);
  // The output arrives while the toggle is open: the card asks again and shows both.
  await send(patch({ op: 'replace', entry: { ...tc, status: 'completed', rawOutput: { stdout: 'a.txt\n', exit_code: 0 } } }));
  await flush();
  await page.locator('[data-key="r1"] details.tool-raw pre:nth-of-type(2)').waitFor();
  assert.match(await raw.locator('pre').nth(1).innerText(), /"stdout": "a\.txt\\n"/);
  assert.equal((await posted()).filter((m) => m.type === 'getRaw').length, 2);
  assert.equal(await page.locator('[data-key="r1"] .tool-raw-output .terminal-output').innerText(), 'a.txt');
});

test('terminal output streams into its tool call and shows the exit code', async ({ open }) => {
  const { page, send, flush } = await open();
  const run = toolCall('tc1', { title: 'Run tests', toolKind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }] });
  await send(snapshot([run], panel({ turn: 'busy', terminals: { 'term-1': { output: 'line 1\n', exited: false, exitCode: null, signal: null } } })));
  await flush();
  const out = page.locator('[data-key="tc1"] [data-terminal-id="term-1"] .terminal-output');
  assert.equal(await out.innerText(), 'line 1\n');
  await send(patch({ op: 'terminal', terminalId: 'term-1', append: 'line 2\n' }, { op: 'terminal', terminalId: 'term-1', append: 'ok ✓\n', exit: { exitCode: 0, signal: null } }));
  await flush();
  assert.equal(await out.innerText(), 'line 1\nline 2\nok ✓\n');
  assert.equal(await page.locator('[data-key="tc1"] .terminal-head .tag').innerText(), 'exit 0');
  assert.doesNotMatch(await page.locator('[data-key="tc1"] .terminal-head').innerText(), /term-|tc1/, 'no terminal id in the label');
  // A terminal the panel knows nothing about falls back to the agent's own _meta.terminal_output.
  await send(
    patch({
      op: 'insert',
      index: 1,
      entry: toolCall('tc2', {
        title: 'Other',
        toolKind: 'execute',
        status: 'completed',
        meta: { terminal_output: { terminal_id: 'x', data: 'from meta' } },
        content: [{ type: 'terminal', terminalId: 'x' }],
      }),
    }),
  );
  await flush();
  assert.equal(await page.locator('[data-key="tc2"] .terminal-output').innerText(), 'from meta');
});

test('legacy modes are hidden when a config option of category mode exists', async ({ open }) => {
  const { page, send, flush } = await open();
  const modes = [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code' },
  ];
  await send(snapshot([], panel({ availableModes: modes, currentModeId: 'ask' })));
  await flush();
  assert.equal(await page.locator('select[aria-label="Mode"]').count(), 1, 'modes alone: their picker is shown');
  const modeOption = {
    id: 'mode',
    name: 'Session mode',
    category: 'mode',
    type: 'select',
    currentValue: 'ask',
    options: [
      { value: 'ask', name: 'Ask' },
      { value: 'code', name: 'Code' },
    ],
  };
  await send(patch({ op: 'panel', panel: { configOptions: [modeOption] } }));
  await flush();
  assert.equal(await page.locator('select[aria-label="Mode"]').count(), 0, 'the legacy picker gives way');
  assert.equal(await page.locator('select[data-config-id="mode"]').count(), 1);
});

test('Show in Message Tree on a message and on a tool card posts revealInTree', async ({ open }) => {
  const { page, send, flush, posted, clearPosted } = await open();
  await send(snapshot([message('agent_message', 'a1', 'hello'), toolCall('tc1', { title: 'Read' })]));
  await flush();
  await clearPosted();
  await page.locator('[data-key="a1"]').hover();
  await page.locator('[data-key="a1"] button[aria-label="Show in Message Tree"]').click();
  await page.locator('[data-key="tc1"]').hover();
  await page.locator('[data-key="tc1"] button[aria-label="Show in Message Tree"]').click();
  assert.deepEqual(await posted(), [
    { type: 'revealInTree', key: 'a1' },
    { type: 'revealInTree', key: 'tc1' },
  ]);
});

test('Fork Chat Here is on user messages only, posts forkChat, and is hidden in a read-only transcript or when the agent cannot fork', async ({ open }) => {
  const { page, send, flush, posted, clearPosted } = await open();
  await send(snapshot([message('user_message', 'u1', 'question'), message('agent_message', 'a1', 'answer')], panel()));
  await flush();
  await clearPosted();
  assert.equal(await page.locator('[data-key="a1"] button[aria-label="Fork Chat Here"]').count(), 0, 'not on agent messages');
  await page.locator('[data-key="u1"]').hover();
  await page.locator('[data-key="u1"] button[aria-label="Fork Chat Here"]').click();
  assert.deepEqual(await posted(), [{ type: 'forkChat', key: 'u1' }]);
  await send(patch({ op: 'panel', panel: { readOnly: true } }));
  await flush();
  assert.equal(await page.locator('[data-key="u1"] button[aria-label="Fork Chat Here"]').isVisible(), false, 'a read-only transcript cannot be forked');
  await send(patch({ op: 'panel', panel: { readOnly: false, canFork: false } }));
  await flush();
  await page.locator('[data-key="u1"]').hover();
  assert.equal(await page.locator('[data-key="u1"] button[aria-label="Fork Chat Here"]').isVisible(), false, 'hidden when the agent does not offer session/fork');
  await send(patch({ op: 'panel', panel: { canFork: true } }));
  await flush();
  await page.locator('[data-key="u1"]').hover();
  assert.equal(await page.locator('[data-key="u1"] button[aria-label="Fork Chat Here"]').isVisible(), true, 'shown again once the agent offers it');
});

test('@ completion asks the host for files and inserts the chosen path', async ({ open }) => {
  const { page, send, posted, clearPosted } = await open();
  await send(snapshot([], panel()));
  const box = page.locator('textarea[aria-label="Prompt"]');
  await box.click();
  await clearPosted();
  await box.pressSequentially('look at @ran');
  await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'mentionQuery' && m.query === 'ran'));
  const queries = (await posted()).filter((m) => m.type === 'mentionQuery');
  assert.deepEqual(queries.at(-1), { type: 'mentionQuery', query: 'ran' });
  await send({ type: 'mentionResults', query: 'ran', paths: ['src/range.ts', 'docs/My Range.md'] });
  const items = page.locator('[role="listbox"][aria-label="Files"] [role="option"]');
  assert.equal(await items.count(), 2);
  await box.press('ArrowDown');
  await box.press('Enter');
  assert.equal(await box.inputValue(), 'look at @"docs/My Range.md" ');
  assert.equal(await items.count(), 0, 'the list closes');
  // A stale answer (the user typed on) is ignored.
  await box.pressSequentially('@x');
  await send({ type: 'mentionResults', query: 'old', paths: ['a.ts'] });
  assert.equal(await items.count(), 0);
});

test('a pasted image shows as a thumbnail and is sent with the prompt', async ({ open }) => {
  const { page, send, posted, clearPosted } = await open();
  await send(snapshot([], panel()));
  const box = page.locator('textarea[aria-label="Prompt"]');
  await box.click();
  await page.evaluate(() => {
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([png], 'shot.png', { type: 'image/png' }));
    document.querySelector('textarea[aria-label="Prompt"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  await page.locator('.prompt-image img').waitFor();
  assert.equal(await page.locator('button[aria-label="Send"]').isDisabled(), false, 'an image alone can be sent');
  await clearPosted();
  await box.fill('what is this?');
  await box.press('Enter');
  const [m] = (await posted()).filter((x) => x.type === 'prompt');
  assert.equal(m.text, 'what is this?');
  assert.equal(m.images.length, 1);
  assert.equal(m.images[0].mimeType, 'image/png');
  assert.ok(m.images[0].data.startsWith('iVBORw0KGgo'));
  assert.equal(await page.locator('.prompt-image').count(), 0, 'the thumbnail goes with the prompt');
});

test('a patch for an unknown entry asks the host for a fresh snapshot', async ({ open }) => {
  const { send, posted, clearPosted } = await open();
  await send(snapshot([message('agent_message', 'a1', 'hi')]));
  await clearPosted();
  await send(patch({ op: 'appendText', key: 'nope', text: 'x' }));
  assert.deepEqual(await posted(), [{ type: 'ready', protocol: PROTOCOL }]);
});

test('permission: buttons on the tool card, key 1 allows, Esc rejects the oldest request', async ({ open }) => {
  const { page, send, flush, posted, clearPosted } = await open();
  const { entries, panel: p } = showcase();
  const second = { ...p.permissions[0], requestId: 'perm-2', title: 'Second request' };
  await send(snapshot(entries, { ...p, permissions: [p.permissions[0], second] }));
  await flush();
  const buttons = page.locator('[data-key="tc3"] button[data-option-id]');
  assert.equal(await buttons.count(), 6, 'both pending requests shown on their card');
  assert.deepEqual(await buttons.evaluateAll((b) => b.slice(0, 3).map((x) => x.dataset.optionId)), ['allow-once', 'allow-always', 'reject-once']);
  // One primary (filled) button per request, the safe "Allow once"; "Always allow" looks like the rest.
  assert.deepEqual(
    await page
      .locator('[data-key="tc3"] .permission')
      .first()
      .locator('.perm-primary')
      .evaluateAll((b) => b.map((x) => x.dataset.optionId)),
    ['allow-once'],
  );
  const bg = (id) => page.locator(`[data-key="tc3"] .permission >> nth=0 >> button[data-option-id="${id}"]`).evaluate((b) => getComputedStyle(b).backgroundColor);
  assert.notEqual(await bg('allow-once'), await bg('allow-always'));
  assert.equal(await bg('allow-always'), await bg('reject-once'));
  await clearPosted();
  await page.locator('section[aria-label="Conversation"]').focus();
  await page.keyboard.press('1');
  await page.keyboard.press('Escape');
  assert.deepEqual(await posted(), [
    { type: 'permission', requestId: 'perm-1', optionId: 'allow-once' },
    { type: 'permission', requestId: 'perm-2', optionId: 'reject-once' },
  ]);
  assert.equal(await page.locator('[data-key="tc3"] .permission').count(), 0, 'answered requests are hidden at once');
  // Clicking a button answers that request.
  await send(patch({ op: 'panel', panel: { permissions: [{ ...second, requestId: 'perm-3' }] } }));
  await clearPosted();
  await page.locator('[data-key="tc3"] button[data-option-id="allow-always"]').click();
  assert.deepEqual(await posted(), [{ type: 'permission', requestId: 'perm-3', optionId: 'allow-always' }]);
  // Digits typed into a non-empty prompt stay text.
  await send(patch({ op: 'panel', panel: { permissions: [{ ...second, requestId: 'perm-4' }] } }));
  await clearPosted();
  await page.locator('textarea[aria-label="Prompt"]').fill('answer ');
  await page.locator('textarea[aria-label="Prompt"]').press('2');
  assert.equal(await page.locator('textarea[aria-label="Prompt"]').inputValue(), 'answer 2');
  assert.deepEqual(
    (await posted()).filter((m) => m.type === 'permission'),
    [],
  );
});

test('a permission without a visible tool call is shown above the prompt box', async ({ open }) => {
  const { page, send, posted, clearPosted } = await open();
  const perm = {
    requestId: 'p9',
    toolCallKey: null,
    toolCallId: 'unknown',
    title: 'Write to /etc/hosts?',
    options: [
      { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  };
  await send(snapshot([message('user_message', 'u1', 'hi')], panel({ turn: 'busy', permissions: [perm] })));
  const box = page.locator('.orphan-permissions');
  assert.ok(await box.isVisible());
  assert.equal(await box.locator('button[data-option-id]').count(), 2);
  assert.match(await page.locator('.turn').innerText(), /Waiting for you/);
  await clearPosted();
  await page.locator('section[aria-label="Conversation"]').focus();
  await page.keyboard.press('2');
  assert.deepEqual(await posted(), [{ type: 'permission', requestId: 'p9', optionId: 'no' }]);
  assert.equal(await box.isVisible(), false);
});

test('a thought is open while streaming, collapses with its duration once the answer starts, and stays as the user opened it', async ({ open }) => {
  const { page, send, flush, wire, errors } = await open();
  await send(snapshot([message('user_message', 'u1', 'hi'), message('agent_thought', 't1', 'Let me think', { ms: 2600 })], panel({ turn: 'busy' })));
  await flush();
  const details = page.locator('[data-key="t1"] details');
  assert.equal(await details.getAttribute('open'), '');
  assert.match(await details.locator('summary').innerText(), /Thinking/);
  await send(patch({ op: 'insert', index: 2, entry: message('agent_message', 'a1', 'The answer') }));
  await flush();
  assert.equal(await details.getAttribute('open'), null);
  assert.match(await details.locator('summary').innerText(), /Thought for 3 s/);
  // The user opens it, and the thought is drawn again before the click's toggle event (a task later): it stays open.
  await page.evaluate(
    ({ msg, raws }) => {
      document.querySelector('[data-key="t1"] details > summary').click();
      window.__host.deliver(msg, raws);
      window.__acpChat.flush();
    },
    wire(patch({ op: 'replace', entry: message('agent_thought', 't1', 'Let me think again', { ms: 2600 }) })),
  );
  assert.match(await details.textContent(), /think again/, 'drawn again');
  assert.equal(await details.getAttribute('open'), '', 'opened by the user, kept open through a redraw before its toggle event');
  await send(patch({ op: 'replace', entry: message('agent_thought', 't1', 'Let me think once more', { ms: 2600 }) }));
  await flush();
  assert.equal(await details.getAttribute('open'), '', 'and after it');
  assert.deepEqual(errors, []);
});

test('search finds text, counts matches and jumps between them', async ({ open }) => {
  const { page, send, flush } = await open();
  const { entries, panel: p } = showcase();
  await send(snapshot(entries, p));
  await flush();
  await page.locator('section[aria-label="Conversation"]').focus();
  await page.keyboard.press('Control+f');
  const input = page.locator('input[aria-label="Search in conversation"]');
  assert.ok(await input.isVisible());
  await input.fill('parseRange');
  const count = page.locator('.search-count');
  const text = await count.innerText();
  const m = /^(\d+) of (\d+)$/.exec(text);
  assert.ok(m, `count text: ${text}`);
  assert.ok(Number(m[2]) >= 3, `at least 3 matches, got ${text}`);
  await input.press('Enter');
  assert.notEqual(await count.innerText(), text);
  assert.ok((await page.locator('.entry.search-hit').count()) >= 2);
  await input.fill('zzz-not-there');
  assert.equal(await count.innerText(), 'No results');
  await input.press('Escape');
  assert.equal(await input.isVisible(), false);
});

test('prompt box: one line (empty, typed, or the placeholder in a narrow panel) fits without scrolling', async ({ open }) => {
  for (const width of [520, 300]) {
    const { page, send, close } = await open({ width, height: 400 });
    await send(snapshot([], panel({ turn: 'idle' })));
    const box = page.locator('textarea[aria-label="Prompt"]');
    const fits = () => box.evaluate((t) => ({ scroll: t.scrollHeight, client: t.clientHeight }));
    const empty = await fits();
    assert.ok(empty.scroll <= empty.client, `empty at ${width}px: ${JSON.stringify(empty)}`);
    await box.fill('one line');
    await box.press('End'); // the autosize runs on input
    await box.type('!');
    const typed = await fits();
    assert.ok(typed.scroll <= typed.client, `one line at ${width}px: ${JSON.stringify(typed)}`);
    await close();
  }
});

test('prompt box: Enter sends, Shift+Enter adds a line, Esc cancels a busy turn', async ({ open }) => {
  const { page, send, posted, clearPosted } = await open();
  await send(snapshot([], panel({ turn: 'idle' })));
  const box = page.locator('textarea[aria-label="Prompt"]');
  await box.click();
  await box.type('line one');
  await box.press('Shift+Enter');
  await box.type('line two');
  assert.equal(await box.inputValue(), 'line one\nline two');
  await clearPosted();
  await box.press('Enter');
  assert.deepEqual(await posted(), [{ type: 'prompt', text: 'line one\nline two' }]);
  assert.equal(await box.inputValue(), '');
  // While busy, a prompt is still posted (the host queues it) and Esc cancels.
  await send(patch({ op: 'panel', panel: { turn: 'busy', queuedPrompts: [{ id: 'q1', text: 'queued one', note: '' }] } }));
  assert.match(await page.locator('.queued').innerText(), /queued one/);
  await clearPosted();
  await box.type('follow-up');
  await box.press('Enter');
  await box.press('Escape');
  assert.deepEqual(await posted(), [{ type: 'prompt', text: 'follow-up' }, { type: 'cancel' }]);
  assert.equal(await page.locator('button[aria-label="Cancel"]').isEnabled(), true);
  await clearPosted();
  await page.locator('button[aria-label="Cancel"]').click();
  assert.deepEqual(await posted(), [{ type: 'cancel' }]);
});

test('steering: a hint while a steerable turn runs, Alt+Enter steers, Enter queues; queued prompts are edited, moved and removed by keyboard', async ({ open }) => {
  const { page, send, posted, clearPosted, errors } = await open();
  const box = page.locator('textarea[aria-label="Prompt"]');
  const hint = page.locator('.prompt-hint');
  await send(patch({ op: 'panel', panel: { turn: 'busy', canSteer: false } }));
  assert.equal(await hint.isVisible(), false, 'no hint for an agent that cannot steer');
  await send(patch({ op: 'panel', panel: { canSteer: true } }));
  assert.match(await hint.innerText(), /Alt\+Enter steers/);
  await box.click();
  await clearPosted();
  await box.type('mind the tests');
  await box.press('Alt+Enter');
  await box.type('then the docs');
  await box.press('Enter');
  assert.deepEqual(await posted(), [
    { type: 'prompt', text: 'mind the tests', steer: true },
    { type: 'prompt', text: 'then the docs' },
  ]);
  await send(patch({ op: 'panel', panel: { turn: 'idle' } }));
  assert.equal(await hint.isVisible(), false, 'no hint when no turn runs');
  // The queue: edit (Enter saves), move down, remove, all by keyboard.
  await send(
    patch({
      op: 'panel',
      panel: {
        turn: 'busy',
        queuedPrompts: [
          { id: 'q1', text: 'one', note: '' },
          { id: 'q2', text: 'two', note: '1 image' },
        ],
      },
    }),
  );
  assert.match(await page.locator('.queued').innerText(), /two \[1 image\]/);
  assert.equal(await page.locator('.queued-item[data-id="q1"] button[aria-label="Move queued prompt up"]').isDisabled(), true);
  await clearPosted();
  await page.locator('.queued-item[data-id="q1"] button[aria-label="Edit queued prompt"]').focus();
  await page.keyboard.press('Enter');
  const editor = page.locator('.queued-editor');
  assert.equal(await editor.inputValue(), 'one');
  await editor.fill('one, reworded');
  await editor.press('Enter');
  await page.locator('.queued-item[data-id="q1"] button[aria-label="Move queued prompt down"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('.queued-item[data-id="q2"] button[aria-label="Remove queued prompt"]').focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await posted(), [
    { type: 'editQueued', id: 'q1', text: 'one, reworded' },
    { type: 'moveQueued', id: 'q1', offset: 1 },
    { type: 'removeQueued', id: 'q2' },
  ]);
  // Escape leaves the text as it was and posts nothing.
  await clearPosted();
  await page.locator('.queued-item[data-id="q2"] button[aria-label="Edit queued prompt"]').click();
  await page.locator('.queued-editor').press('Escape');
  assert.deepEqual(await posted(), []);
  assert.match(await page.locator('.queued').innerText(), /one/);
  assert.deepEqual(errors, []);
});

test('context chips: shown from the panel state, removable, and enough to send', async ({ open }) => {
  const { page, send, posted, clearPosted, errors } = await open();
  const chips = [
    { id: 'ctx-1', kind: 'selection', label: 'range.ts:10-20', detail: '/home/dev/app/src/range.ts:10-20' },
    { id: 'ctx-2', kind: 'problems', label: 'Problems: range.ts', detail: '/home/dev/app/src/range.ts' },
  ];
  await send(snapshot([], panel({ turn: 'idle', context: chips })));
  const row = page.locator('[role="list"][aria-label="Context for the next message"]');
  assert.deepEqual(await row.locator('[role="listitem"] .label').allInnerTexts(), ['range.ts:10-20', 'Problems: range.ts']);
  assert.equal(await row.locator('[role="listitem"]').first().getAttribute('title'), '/home/dev/app/src/range.ts:10-20');
  await page.screenshot({ path: path.join(shots, 'webview-context-chips.png') });
  // Chips alone make a prompt: Send is enabled with an empty box.
  assert.equal(await page.locator('button[aria-label="Send"]').isEnabled(), true);
  await clearPosted();
  await page.locator('button[aria-label="Remove range.ts:10-20"]').click();
  assert.deepEqual(await posted(), [{ type: 'removeContext', id: 'ctx-1' }]);
  // The host answers with the new list; focus stays in the prompt box, not lost with the removed button.
  await send(patch({ op: 'panel', panel: { context: [chips[1]] } }));
  assert.deepEqual(await row.locator('[role="listitem"] .label').allInnerTexts(), ['Problems: range.ts']);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Prompt');
  await send(patch({ op: 'panel', panel: { context: [] } }));
  assert.equal(await row.isVisible(), false);
  assert.equal(await page.locator('button[aria-label="Send"]').isEnabled(), false);
  assert.deepEqual(errors, []);
});

test('slash-command completion appears and completes', async ({ open }) => {
  const { page, send } = await open();
  const { panel: p } = showcase();
  await send(snapshot([], { ...p, permissions: [], turn: 'idle' }));
  const box = page.locator('textarea[aria-label="Prompt"]');
  await box.click();
  await box.type('/h');
  const list = page.locator('[role="listbox"]');
  assert.ok(await list.isVisible());
  assert.deepEqual(await list.locator('[role="option"]').evaluateAll((o) => o.map((x) => x.dataset.command)), ['help', 'history']);
  await box.press('ArrowDown');
  await box.press('Enter');
  assert.equal(await box.inputValue(), '/history ');
  assert.equal(await list.isVisible(), false);
});

test('panel controls post mode, config, open-diff, location, copy, export and restart messages', async ({ open }) => {
  const { page, send, flush, posted, clearPosted } = await open();
  const { entries, panel: p } = showcase();
  await send(snapshot(entries, { ...p, permissions: [] }));
  await flush();
  // Unrelated panel updates (usage while streaming) leave the pickers alone, so an open dropdown stays open.
  await page.evaluate(() => (window.__modeSelect = document.querySelector('select[aria-label="Mode"]')));
  await send(patch({ op: 'panel', panel: { usage: { used: 60_000, size: 200_000 } } }));
  assert.match(await page.locator('.usage').innerText(), /60k/);
  assert.ok(await page.evaluate(() => window.__modeSelect === document.querySelector('select[aria-label="Mode"]')));
  await clearPosted();
  await page.locator('select[aria-label="Mode"]').selectOption('ask');
  await page.locator('select[aria-label="Model"]').selectOption('smart');
  await page.locator('[data-key="tc2"] button.open-diff').click();
  await page.locator('[data-key="tc1"] .location').click();
  await page.locator('[data-key="a1"] .code-copy').click();
  await page.locator('button[aria-label="Export as Markdown"]').click();
  const msgs = await posted();
  assert.deepEqual(msgs.slice(0, 4), [
    { type: 'setMode', modeId: 'ask' },
    { type: 'setConfigOption', configId: 'model', value: 'smart' },
    { type: 'openDiff', key: 'tc2', index: 0 },
    { type: 'openLocation', path: '/home/dev/app/src/range.ts', line: 3 },
  ]);
  assert.equal(msgs[4].type, 'copy');
  assert.match(msgs[4].text, /export function parseRange/);
  assert.deepEqual(msgs[5], { type: 'exportMarkdown' });
  // The agent died: a banner with the next step.
  await send(patch({ op: 'panel', panel: { turn: 'exited', message: 'The agent exited with code 1.' } }));
  const banner = page.locator('.banner');
  assert.match(await banner.innerText(), /exited with code 1/);
  await clearPosted();
  await banner.getByRole('button', { name: 'Restart agent' }).click();
  assert.deepEqual(await posted(), [{ type: 'restartAgent' }]);
  // The chat's agent is not configured: restarting cannot help, configuring it does.
  await send(patch({ op: 'panel', panel: { turn: 'error', message: 'Agent "claude" is not configured: add it (Add Agent…).', missingAgent: 'claude' } }));
  assert.match(await banner.innerText(), /Agent "claude" is not configured/);
  assert.equal(await banner.getByRole('button', { name: 'Restart agent' }).count(), 0);
  await clearPosted();
  await banner.getByRole('button', { name: 'Add Agent…' }).click();
  await banner.getByRole('button', { name: 'Open Settings' }).click();
  assert.deepEqual(await posted(), [
    { type: 'configureAgent', how: 'add' },
    { type: 'configureAgent', how: 'settings' },
  ]);
});

test('long sessions: only entries near the viewport are built; reveal builds and scrolls', async ({ open }) => {
  const { page, send, flush } = await open();
  const entries = [];
  for (let i = 0; i < 3000; i++) entries.push(i % 2 ? message('agent_message', `e${i}`, `Answer **${i}** with some text.`) : message('user_message', `e${i}`, `Question ${i}`));
  await send(snapshot(entries));
  await flush();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Older entries wait in blocks (one element each), so far fewer than 3,000 wrappers exist.
  const wrappers = await page.locator('[role="article"][data-key]').count();
  assert.ok(wrappers >= 64 && wrappers < 400, `${wrappers} wrappers for 3000 entries`);
  const built = await page.locator('[role="article"]:not(.placeholder)').count();
  assert.ok(built > 5 && built < 300, `built ${built} of 3000`);
  assert.equal(await page.locator('[data-key="e0"]').count(), 0);
  assert.ok(await page.evaluate(() => window.__acpChat.transcript.entries.length === 3000), 'the model has every entry');
  await send({ type: 'reveal', key: 'e1' });
  await page.locator('[data-key="e1"]:not(.placeholder)').waitFor();
  assert.match(await page.locator('[data-key="e1"]').innerText(), /Answer 1/);
  assert.ok(await page.locator('[data-key="e1"]').isVisible());
  // Scrolling into a block builds its entries where they were, in order.
  await page.evaluate(() => {
    document.querySelector('section[aria-label="Conversation"]').scrollTop = 1e9;
  });
  await page.evaluate(() => {
    const s = document.querySelector('section[aria-label="Conversation"]');
    s.scrollTop = s.scrollHeight / 2;
  });
  await page.waitForFunction(() => {
    const s = document.querySelector('section[aria-label="Conversation"]').getBoundingClientRect();
    return [...document.querySelectorAll('[role="article"]:not(.placeholder)')].some((el) => {
      const r = el.getBoundingClientRect();
      return r.top > s.top && r.bottom < s.bottom;
    });
  });
  const keys = await page.evaluate(() => [...document.querySelectorAll('[role="article"][data-key]')].map((el) => Number(el.dataset.key.slice(1))));
  assert.deepEqual(
    keys,
    [...keys].sort((a, b) => a - b),
    'wrappers in transcript order',
  );
});

test('a snapshot sent newest first: older parts go above, the earlier-session marker lands right, later patches wait their turn', async ({ open }) => {
  const { page, send, flush } = await open();
  const all = [];
  for (let i = 0; i < 300; i++) all.push(i % 2 ? message('agent_message', `e${i}`, `Answer ${i}`) : message('user_message', `e${i}`, `Question ${i}`));
  // Entries 0..99 are an earlier session's; the snapshot carries 200..299, then 100..199, then 0..99.
  const p = panel({ earlier: { sessionId: 'old', entryCount: 100, reason: 'load failed' } });
  await send({ ...snapshot(all.slice(200), p), olderCount: 200 });
  await send({ type: 'older', entries: all.slice(100, 200), olderCount: 100 });
  await send({ type: 'older', entries: all.slice(0, 100), olderCount: 0 });
  await send(patch({ op: 'insert', index: 300, entry: message('agent_message', 'e300', 'Newest') }));
  await page.waitForFunction(() => window.__acpChat.transcript.entries.length === 301);
  await flush();
  const keys = await page.evaluate(() => window.__acpChat.transcript.entries.map((e) => e.key));
  assert.deepEqual(keys, [...all.map((e) => e.key), 'e300']);
  await send({ type: 'reveal', key: 'e100' });
  await page.locator('[data-key="e100"]:not(.placeholder)').waitFor();
  assert.equal(await page.evaluate(() => document.querySelector('[data-key="e100"]').previousElementSibling?.className), 'session-marker');
  assert.equal(
    await page
      .locator('[data-key="e99"]')
      .getAttribute('class')
      .then((c) => c.includes('earlier')),
    true,
  );
  assert.equal(
    await page
      .locator('[data-key="e100"]')
      .getAttribute('class')
      .then((c) => c.includes('earlier')),
    false,
  );
});

test('Alt+Up / Alt+Down jump between your prompts', async ({ open }) => {
  const { page, send, flush } = await open();
  const entries = [];
  for (let i = 0; i < 40; i++)
    entries.push(i % 2 ? message('agent_message', `e${i}`, `Answer ${i}\n\n${'More text. '.repeat(40)}`) : message('user_message', `e${i}`, `Question ${i}`));
  await send(snapshot(entries));
  await flush();
  await page.locator('section[aria-label="Conversation"]').focus();
  await page.keyboard.press('Alt+ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), 'e38');
  await page.keyboard.press('Alt+ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), 'e36');
  await page.keyboard.press('Alt+ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), 'e38');
  assert.ok(await page.locator('[data-key="e38"]').isVisible());
});

test('focusPrompt focuses the prompt; the draft survives a reload', async ({ open }) => {
  const first = await open();
  await first.send(snapshot([]));
  await first.page.locator('section[aria-label="Conversation"]').focus();
  await first.send({ type: 'focusPrompt' });
  assert.equal(await first.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Prompt');
  await first.page.keyboard.type('half-written');
  const states = await first.page.evaluate(() => window.__host.states);
  const last = states[states.length - 1];
  assert.equal(last.v, PROTOCOL);
  assert.equal(last.draft, 'half-written');
  const second = await open({ state: last });
  assert.equal(await second.page.locator('textarea[aria-label="Prompt"]').inputValue(), 'half-written');
  // Saved by an older webview (wire protocol 1): an update keeps the draft.
  const older = await open({ state: { ...last, v: 1, draft: 'from before the update' } });
  assert.equal(await older.page.locator('textarea[aria-label="Prompt"]').inputValue(), 'from before the update');
  const junk = await open({ state: { v: 2, draft: 42, scrollKey: {} } });
  assert.equal(await junk.page.locator('textarea[aria-label="Prompt"]').inputValue(), '', 'fields of the wrong type are ignored');
});

for (const theme of ['light', 'dark', 'high-contrast']) {
  test(`screenshot (${theme})`, async ({ open }) => {
    const { page, send, flush, errors } = await open({ theme, height: 1500 });
    const { entries, panel: p } = showcase();
    await send(snapshot(entries, p));
    await flush();
    await page.evaluate(() => document.fonts.ready);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))); // painted with the fonts
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `webview-${theme}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    assert.equal(
      await page
        .locator('.codicon')
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily.includes('codicon')),
      true,
    );
  });
}

test('screenshot (dark, search and slash completion open)', async ({ open }) => {
  const { page, send, flush, errors } = await open({ theme: 'dark', height: 700 });
  const { entries, panel: p } = showcase();
  await send(
    snapshot(entries, {
      ...p,
      permissions: [],
      queuedPrompts: [{ id: 'q1', text: 'Then update the changelog', note: '' }],
      notices: [{ severity: 'warning', title: 'Context almost full', description: 'Older turns may be summarized.' }],
    }),
  );
  await flush();
  await page.locator('section[aria-label="Conversation"]').focus();
  await page.keyboard.press('Control+f');
  await page.locator('input[aria-label="Search in conversation"]').fill('range');
  const box = page.locator('textarea[aria-label="Prompt"]');
  await box.click();
  await box.type('/');
  await page.evaluate(() => document.fonts.ready);
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, 'webview-dark-interactions.png') });
  assert.ok(await page.locator('[role="listbox"]').isVisible());
  assert.deepEqual(errors, []);
});

registerTranscriptCases(test);
registerFirstFrameCases(test);
registerElicitationCases(test);
registerOrphanQuestionCases(test);
registerToolCardQuestionCases(test);
registerChangesCases(test);
registerNarrowChangesCases(test);
registerEditCases(test);
registerRerunCases(test);
registerScrollPinCases(test);
registerScrollRestoreCases(test);
registerMarkdownCases(test);
registerStreamingCases(test);
registerSideBarCases(test);
registerHistoryCases(test);
registerSubagentCases(test);
registerPolishCases(test);
registerPlanCases(test);
registerSpaceCases(test);
registerPathCases(test);
registerSmallThings(test);
registerSubagentExpandCases(test);
registerHostileCases(test);
registerCompactionCases(test);
registerRemoteCases(test);
registerCodeBlockCases(test);
registerContextCases(test);
registerFoldCases(test);
registerToolReviewCases(test);
registerA11yTests(test);

// ---- runner
// BROWSER_JOBS tests at a time (default 2), each in its own browser context: most of a test is waiting on
// Chromium's renderer, so two lanes keep both cores busy. Results print in the tests' own order.
const jobs = Math.max(1, Number(process.env.BROWSER_JOBS ?? 2));
const server = await startServer();
let browser;
let passed = 0;
let failed = 0;
try {
  await buildWebview();
  browser = await launch();
  const chosen = tests.filter((t) => !filter || t.name.includes(filter));
  const run = async (t) => {
    if (!browser.isConnected()) {
      // Chromium itself went away (the test that saw it has failed, saying so): the tests after it get a new one.
      console.log('  (Chromium disconnected: launching it again)');
      browser = await launch();
    }
    const opened = [];
    const open = async (opts) => {
      const p = await openPanel(browser, server, opts);
      opened.push(p);
      return p;
    };
    try {
      await t.fn({ open });
      return `  ✔ ${t.name}`;
    } catch (err) {
      return `  ✘ ${t.name}\n    ${String(err?.stack ?? err)
        .split('\n')
        .slice(0, 6)
        .join('\n    ')}`;
    } finally {
      for (const p of opened) await p.close().catch(() => undefined); // already gone with a crashed browser
    }
  };
  const results = chosen.map(() => undefined);
  let next = 0;
  let printed = 0;
  const lane = async () => {
    while (next < chosen.length) {
      const i = next++;
      results[i] = await run(chosen[i]);
      while (printed < results.length && results[printed] !== undefined) {
        const line = results[printed++];
        if (line.startsWith('  ✔')) passed++;
        else failed++;
        console.log(line);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, lane));
} finally {
  await browser?.close();
  await server.close();
}
if (passed + failed === 0) console.log(`no browser test matches "${filter}"`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed || passed === 0 ? 1 : 0);
