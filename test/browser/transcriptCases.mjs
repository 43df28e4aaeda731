// Browser checks of what real agents send and the demo does not: a failed reattach (earlier transcript
// above a marker), tool output shapes, diffs of newline-terminated text, line-0 locations, code spans in
// titles, a mode offered twice, and a narrow panel. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { message, panel, toolCall, snapshot, patch } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');
const text = (t) => ({ type: 'content', content: { type: 'text', text: t } });

export function register(test) {
  test('a failed reattach: the earlier transcript stays above a marker, new entries go below it', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 700 });
    const earlier = [
      message('user_message', 'old-u', 'What does parseRange do?'),
      message('agent_message', 'old-a', 'It parses `1-3` into a pair.'),
      toolCall('old-t', { title: 'Read range.ts', toolKind: 'read', status: 'completed' }),
    ];
    const reason = 'session/load of s-0 failed: session/load failed (-32603): Internal error (No previous sessions found for this project)';
    await send(snapshot(earlier, panel({ sessionId: 's-1', earlier: { sessionId: 's-0', entryCount: 3, reason } })));
    await flush();
    const marker = page.locator('.entries > .session-marker');
    assert.equal(await marker.count(), 1);
    assert.match(await marker.innerText(), /new session started below/);
    assert.match(await marker.innerText(), /No previous sessions found for this project/);
    assert.equal(await page.locator('.entry.earlier').count(), 3);
    // The new session's first entries arrive after the marker, in order.
    await send(
      patch(
        { op: 'insert', index: 3, entry: message('user_message', 'new-u', 'Are you there?') },
        { op: 'insert', index: 4, entry: toolCall('new-t', { toolCallId: 'tc-old-t', title: 'Read range.ts again', status: 'pending' }) },
      ),
    );
    await flush();
    const order = await page.locator('.entries > *').evaluateAll((els) => els.map((e) => e.dataset.key ?? 'marker'));
    assert.deepEqual(order, ['old-u', 'old-a', 'old-t', 'marker', 'new-u', 'new-t']);
    assert.equal(await page.locator('[data-key="new-u"]').evaluate((e) => e.classList.contains('earlier')), false);
    // A permission for a reused tool call id goes to the new session's card, never the read-only one.
    const perm = { requestId: 'p1', toolCallKey: null, toolCallId: 'tc-old-t', title: 'Read again?', options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] };
    await send(patch({ op: 'panel', panel: { permissions: [perm] } }));
    assert.equal(await page.locator('[data-key="new-t"] .permission').count(), 1);
    assert.equal(await page.locator('[data-key="old-t"] .permission').count(), 0);
    await page.evaluate(() => document.fonts.ready);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-earlier-transcript.png') });
    // A new snapshot without an earlier transcript removes the marker.
    await send(snapshot([message('user_message', 'x', 'fresh')]));
    assert.equal(await page.locator('.session-marker').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('tool output: printed text keeps its lines, fenced text is Markdown, rawOutput-only shell output shows as a terminal', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 1100 });
    const entries = [
      // OpenCode: plain output in content.
      toolCall('oc', { title: 'mkdir -p out && cat out/notes.txt', toolKind: 'execute', status: 'completed', content: [text('hello\nupdated by mock agent\nshell-ok\n')] }),
      // Claude Code: fenced output.
      toolCall('cc', { title: 'cat notes.txt', toolKind: 'execute', status: 'completed', content: [text('```console\nhello\nshell-ok\n```')] }),
      // Codex: output only in rawOutput.
      toolCall('cx', {
        title: 'mkdir -p out && cat out/notes.txt && echo shell-ok',
        toolKind: 'execute',
        status: 'completed',
        rawOutput: {
          stdout: 'hello\nupdated by mock agent\nshell-ok\n',
          stderr: '',
          aggregated_output: 'hello\nupdated by mock agent\nshell-ok\n',
          exit_code: 0,
          formatted_output: 'hello\nupdated by mock agent\nshell-ok\n',
        },
      }),
      // Codex edit: the diff is the result; its rawOutput summary stays behind the raw toggle.
      toolCall('ce', {
        title: 'Edit notes.txt',
        toolKind: 'edit',
        status: 'completed',
        content: [{ type: 'diff', path: '/w/notes.txt', oldText: 'hello\n', newText: 'hello\nupdated by mock agent\n' }],
        rawOutput: { stdout: 'Success. Updated the following files:\nM notes.txt\n', stderr: '' },
      }),
      // OpenCode failing command, output only in rawOutput with metadata.exit.
      toolCall('of', { title: 'false', toolKind: 'execute', status: 'failed', rawOutput: { output: 'boom\n', metadata: { exit: 1 } } }),
    ];
    await send(snapshot(entries));
    await flush();
    const plain = page.locator('[data-key="oc"] pre.tool-output');
    assert.equal(await plain.count(), 1);
    assert.equal(await plain.innerText(), 'hello\nupdated by mock agent\nshell-ok');
    assert.equal(await page.locator('[data-key="cc"] .markdown pre code').innerText(), 'hello\nshell-ok\n');
    const codex = page.locator('[data-key="cx"] .tool-raw-output');
    assert.equal(await codex.locator('.terminal-output').innerText(), 'hello\nupdated by mock agent\nshell-ok');
    assert.equal(await codex.locator('.tag').innerText(), 'exit 0');
    assert.equal(await page.locator('[data-key="ce"] .tool-raw-output').count(), 0);
    assert.equal(await page.locator('[data-key="of"] .tool-raw-output .tag').innerText(), 'exit 1');
    // A newline-terminated edit: one context row and one added row, no blank row after them.
    assert.deepEqual(await page.locator('[data-key="ce"] .diff-row').evaluateAll((rs) => rs.map((r) => r.className.replace('diff-row ', '') + ':' + r.textContent)), [
      'diff-ctx: hello',
      'diff-add:+updated by mock agent',
    ]);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-tool-output.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });

  test('a tool call whose permission was rejected shows Rejected, not Pending', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot([toolCall('r1', { title: 'Edit notes.txt', toolKind: 'edit', status: 'rejected' })]));
    await flush();
    const status = page.locator('[data-key="r1"] .status');
    assert.equal(await status.innerText(), 'Rejected');
    assert.equal(await status.getAttribute('data-status'), 'rejected');
  });

  test('after a cancel the plan stops spinning; a notice sent every turn shows once with its count', async ({ open }) => {
    const { page, send, flush, errors } = await open({ height: 700 });
    const plan = [
      { content: 'Answer in markdown', priority: 'medium', status: 'completed' },
      { content: 'Edit demo-edit.txt', priority: 'medium', status: 'in_progress' },
      { content: 'Run a command', priority: 'medium', status: 'pending' },
    ];
    const notice = { severity: 'info', title: 'The demo agent speaks the ACP v2 draft on this connection.' };
    await send(snapshot([message('user_message', 'u1', 'please edit')], panel({ turn: 'busy', plan, notices: [notice] })));
    await flush();
    const step = page.locator('.plan-item').nth(1);
    assert.equal(await step.locator('.codicon-modifier-spin').count(), 1, 'spins while the turn runs');
    assert.equal(await page.locator('.notice-count').count(), 0, 'no count for a notice seen once');
    await send(patch({ op: 'panel', panel: { turn: 'idle', notices: [{ ...notice, count: 3 }] } }));
    await flush();
    assert.equal(await page.locator('.codicon-modifier-spin').count(), 0, 'nothing spins once the turn ended');
    assert.equal(await step.getAttribute('data-status'), 'stopped');
    assert.match(await step.getAttribute('title'), /Stopped/);
    assert.equal(await page.locator('.notice').count(), 1);
    assert.equal(await page.locator('.notice-count').innerText(), '×3');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-plan-stopped.png') });
    assert.deepEqual(errors, []);
  });

  test('a protocol 2 edit card reads like a v1 diff: line counts, Open diff, no raw patch headers', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open({ height: 500 });
    const patchText = ['--- a/demo-edit.txt', '+++ b/demo-edit.txt', '@@ -1,2 +1,3 @@', ' first', '-old', '+new', '+more', '\\ No newline at end of file'].join('\n');
    const diff = { type: 'diff', changes: [{ operation: 'modify', path: '/w/demo-edit.txt', fileType: 'text' }], patch: { format: 'unified', text: patchText } };
    await send(snapshot([toolCall('v2e', { title: 'Edit demo-edit.txt', toolKind: 'edit', status: 'completed', content: [diff] })]));
    await flush();
    const card = page.locator('[data-key="v2e"]');
    assert.equal(await card.locator('.diff-stat').innerText(), '+2 −1');
    assert.equal(await card.locator('.diff-add').count(), 2);
    assert.equal(await card.locator('.diff-del').count(), 1);
    const body = await card.locator('.diff-body').innerText();
    assert.doesNotMatch(body, /^(---|\+\+\+|@@)/m, 'no raw patch headers');
    assert.match(body, /⋯ line 1/);
    await clearPosted();
    await card.locator('button.open-diff').click();
    assert.deepEqual(await posted(), [{ type: 'openDiff', key: 'v2e', index: 0 }]);
    mkdirSync(shots, { recursive: true });
    await card.screenshot({ path: path.join(shots, 'webview-v2-edit-card.png') });
    assert.deepEqual(errors, []);
  });

  test('an agent that could not start: the banner says why and the empty chat does not invite a prompt', async ({ open }) => {
    const { page, send, flush } = await open({ height: 500 });
    await send(snapshot([], panel({ turn: 'idle' })));
    await flush();
    assert.equal(await page.locator('.empty-state').isVisible(), true);
    await send(patch({ op: 'panel', panel: { turn: 'error', message: "Could not start 'claude-code-acp': command not found" } }));
    await flush();
    assert.equal(await page.locator('.empty-state').isVisible(), false);
    assert.match(await page.locator('.banner').innerText(), /command not found/);
  });

  test('titles show code spans as code; a line-0 location shows no line', async ({ open }) => {
    const { page, send, flush } = await open();
    const perm = { requestId: 'p1', toolCallKey: 't1', toolCallId: 'tc-t1', title: 'Allow `rm -rf out`?', options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] };
    await send(
      snapshot(
        [
          toolCall('t1', {
            title: 'Run `npm test` in `<app>`',
            toolKind: 'execute',
            status: 'pending',
            locations: [
              { path: '/w/a.ts', line: 0 },
              { path: '/w/b.ts', line: 12 },
            ],
          }),
        ],
        panel({ title: 'Fix `parseRange`', permissions: [perm] }),
      ),
    );
    await flush();
    const title = page.locator('[data-key="t1"] .tool-title');
    assert.deepEqual(await title.locator('code').allInnerTexts(), ['npm test', '<app>']);
    assert.equal(await title.innerText(), 'Run npm test in <app>');
    assert.deepEqual(await page.locator('.session-title code').allInnerTexts(), ['parseRange']);
    assert.deepEqual(await page.locator('[data-key="t1"] .perm-title code').allInnerTexts(), ['rm -rf out']);
    const chips = page.locator('[data-key="t1"] .tool-locations .location');
    assert.deepEqual(await chips.allInnerTexts(), ['/w/a.ts', '/w/b.ts:12']);
    assert.equal(await chips.first().getAttribute('data-line'), null);
  });

  test('the same choice offered as modes and as an uncategorised config option gets one picker', async ({ open }) => {
    const { page, send, flush } = await open();
    const modes = [
      { id: 'default', name: 'Default' },
      { id: 'plan', name: 'Plan' },
    ];
    const option = {
      id: 'mode',
      name: 'Mode',
      type: 'select',
      currentValue: 'plan',
      options: [
        { value: 'default', name: 'Default' },
        { value: 'plan', name: 'Plan' },
      ],
    };
    const model = { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] };
    await send(snapshot([], panel({ availableModes: modes, currentModeId: 'plan', configOptions: [option, model] })));
    await flush();
    assert.equal(await page.locator('.pickers select').count(), 2, 'the mode option and the model, no legacy mode picker');
    assert.equal(await page.locator('select[data-config-id="mode"]').inputValue(), 'plan');
  });

  test('a narrow panel shows the whole usage text', async ({ open }) => {
    const { page, send, flush } = await open({ width: 260, height: 400 });
    const modes = [
      { id: 'default', name: 'Default permissions' },
      { id: 'plan', name: 'Plan' },
    ];
    const model = { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'claude-sonnet-long-model-name' }] };
    await send(
      snapshot(
        [message('user_message', 'u', 'hi')],
        panel({ availableModes: modes, currentModeId: 'default', configOptions: [model], usage: { used: 148_200, size: 200_000, cost: { amount: 12.42, currency: 'USD' } } }),
      ),
    );
    await flush();
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'webview-narrow.png') });
    const usage = page.locator('.usage');
    const box = await usage.boundingBox();
    const width = page.viewportSize().width;
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, `usage inside the panel: ${JSON.stringify(box)} of ${width}`);
    assert.ok(await usage.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'usage text not clipped');
    assert.match(await usage.innerText(), /148k \/ 200k \(74%\) · 12\.42 USD/);
  });
  test('long chats: older entries arriving above keep what is read in place; scrolling up step by step builds them', async ({ open }) => {
    const { page, send, flush } = await open({ height: 700 });
    const all = [];
    for (let i = 0; i < 3000; i++)
      all.push(i % 2 ? message('agent_message', `e${i}`, `Answer **${i}**\n\n${'Some more text. '.repeat(i % 7)}`) : message('user_message', `e${i}`, `Question ${i}`));
    await send({ ...snapshot(all.slice(2000)), olderCount: 2000 });
    await flush();
    const scroller = 'section[aria-label="Conversation"]';
    // Read somewhere in the middle of what is there (a jump into a block builds it where it was).
    await page.evaluate((sel) => {
      const s = document.querySelector(sel);
      s.scrollTop = s.scrollHeight / 2;
    }, scroller);
    const inView = () =>
      page.evaluate((sel) => {
        const s = document.querySelector(sel).getBoundingClientRect();
        const el = [...document.querySelectorAll('[role="article"]:not(.placeholder)')].find((e) => {
          const r = e.getBoundingClientRect();
          return r.top > s.top && r.bottom < s.bottom;
        });
        return el ? { key: el.dataset.key, top: el.getBoundingClientRect().top } : null;
      }, scroller);
    await page.waitForFunction((sel) => {
      const s = document.querySelector(sel).getBoundingClientRect();
      return [...document.querySelectorAll('[role="article"]:not(.placeholder)')].some((e) => {
        const r = e.getBoundingClientRect();
        return r.top > s.top && r.bottom < s.bottom;
      });
    }, scroller);
    const before = await inView();
    assert.ok(before, 'an entry is built and on screen');
    await send({ type: 'older', entries: all.slice(0, 2000), olderCount: 0 });
    await page.waitForFunction(() => window.__acpChat.transcript.entries.length === 3000);
    await flush();
    const after = await page.evaluate(
      ({ key }) => ({ top: document.querySelector(`[data-key="${key}"]`).getBoundingClientRect().top, pinned: window.__acpChat.transcript.isPinned }),
      { sel: scroller, key: before.key },
    );
    assert.ok(Math.abs(after.top - before.top) <= 1, `the entry read stays where it was: ${before.top} -> ${after.top}`);
    // Scrolling up from the oldest built entries, a wheel step per frame: each step shows built entries.
    await send({ type: 'reveal', key: 'e2000' });
    await page.locator('[data-key="e2000"]:not(.placeholder)').waitFor();
    for (let i = 0; i < 40; i++) {
      await page.evaluate(
        (sel) =>
          new Promise((r) =>
            requestAnimationFrame(() => {
              document.querySelector(sel).scrollTop -= 150;
              r();
            }),
          ),
        scroller,
      );
    }
    await page.waitForFunction((sel) => {
      const s = document.querySelector(sel).getBoundingClientRect();
      const seen = [...document.querySelectorAll('.entries > *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.bottom > s.top && r.top < s.bottom;
      });
      return seen.length > 0 && seen.every((e) => e.matches('[role="article"]:not(.placeholder)'));
    }, scroller);
    const keys = await page.evaluate(() => [...document.querySelectorAll('[role="article"][data-key]')].map((el) => Number(el.dataset.key.slice(1))));
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => a - b),
      'wrappers in transcript order',
    );
    assert.ok(Math.min(...keys) < 1990, `entries above e2000 were put in: ${Math.min(...keys)}`);
  });
  test('long chats: built entries far from the viewport leave the document in blocks of their height and come back as they were', async ({ open }) => {
    const { page, send, flush } = await open({ height: 700 });
    const all = [];
    for (let i = 0; i < 400; i++) {
      const k = i % 3;
      all.push(
        k === 0
          ? message('user_message', `e${i}`, `Question ${i}: why?`)
          : k === 1
            ? message('agent_message', `e${i}`, `Answer **${i}**: word${i}x\n\n- one\n- two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`\n\n${'More text here. '.repeat(i % 9)}`)
            : toolCall(`e${i}`, { title: `Read file${i}.ts`, toolKind: 'read', status: 'completed', locations: [{ path: `/w/file${i}.ts` }] }),
      );
    }
    await send(snapshot(all));
    await flush();
    const scroller = 'section[aria-label="Conversation"]';
    // Entries above still being built change the height: wait until it holds for ten frames.
    const settled = () =>
      page.waitForFunction(
        (sel) => {
          const s = document.querySelector(sel);
          const w = (window.__settle ??= { h: -1, n: 0 });
          w.n = s.scrollHeight === w.h ? w.n + 1 : 0;
          w.h = s.scrollHeight;
          return w.n >= 10;
        },
        scroller,
        { polling: 'raf' },
      );
    // On a loaded machine the wrappers near the end are still cheap placeholders after the snapshot's
    // flush; one built after the measure below would move every entry above it. Wait for none in the
    // viewport's reach and a height that holds.
    await page.waitForFunction(
      (sel) => {
        const s = document.querySelector(sel).getBoundingClientRect();
        return ![...document.querySelectorAll('[role="article"].placeholder')].some((el) => {
          const r = el.getBoundingClientRect();
          return r.bottom > s.top - 1200 && r.top < s.bottom + 1200;
        });
      },
      scroller,
      { polling: 'raf' },
    );
    await settled();
    // The entries built at the bottom: their elements, sizes and distance from the end of the list.
    const bottom = await page.evaluate(() => {
      window.__built = new Map([...document.querySelectorAll('[role="article"]:not(.placeholder)')].map((el) => [el.dataset.key, el]));
      const end = document.querySelector('.entries').getBoundingClientRect().bottom;
      return Object.fromEntries([...window.__built].map(([k, el]) => [k, { h: el.getBoundingClientRect().height, fromEnd: end - el.getBoundingClientRect().top }]));
    });
    assert.ok(Object.keys(bottom).length >= 12, 'the newest entries are built');
    // One entry holds the focus, one the selection: both stay in the document wherever the view goes.
    await page.locator('[data-key="e397"] button').first().focus();
    await page.evaluate(() => getSelection().selectAllChildren(document.querySelector('[data-key="e394"] .entry-body')));
    const selected = await page.evaluate(() => getSelection().toString());
    assert.match(selected, /word394x/);
    // Up by 150 px a frame until the bottom entries are far below the viewport.
    for (let i = 0; i < 80; i++)
      await page.evaluate(
        (sel) =>
          new Promise((r) =>
            requestAnimationFrame(() => {
              document.querySelector(sel).scrollTop -= 150;
              r();
            }),
          ),
        scroller,
      );
    await page.waitForFunction(() => !document.querySelector('[data-key="e399"]'));
    await page.evaluate(() => {
      window.__settle = undefined;
    });
    await settled();
    const parked = await page.evaluate(
      (sel) => ({
        gone: [...window.__built.keys()].filter((k) => !document.querySelector(`[data-key="${k}"]`)),
        kept: ['e397', 'e394'].filter((k) => document.querySelector(`[data-key="${k}"]`)),
        selection: getSelection().toString(),
        height: document.querySelector(sel).scrollHeight,
        top: document.querySelector(sel).scrollTop,
        inView: [...document.querySelectorAll('[role="article"]')].filter((el) => {
          const r = el.getBoundingClientRect();
          const s = document.querySelector(sel).getBoundingClientRect();
          return r.bottom > s.top && r.top < s.bottom;
        }).length,
      }),
      scroller,
    );
    assert.ok(parked.gone.length >= 10, `built entries left the document: ${parked.gone.length}`);
    assert.deepEqual(parked.kept, ['e397', 'e394'], 'the focused and the selected entries stay');
    assert.equal(parked.selection, selected, 'the selection is intact');
    assert.ok(parked.inView > 0, 'entries are on screen');
    // Search finds a match in a parked entry and shows it there.
    assert.ok(parked.gone.includes('e391'), 'e391 is parked');
    await page.keyboard.press('Control+f');
    await page.locator('input[aria-label="Search in conversation"]').fill('word391x');
    await page.waitForFunction((sel) => {
      const el = document.querySelector('[data-key="e391"]');
      const s = document.querySelector(sel).getBoundingClientRect();
      const r = el?.getBoundingClientRect();
      return r && r.bottom > s.top && r.top < s.bottom;
    }, scroller);
    assert.ok(await page.evaluate(() => document.querySelector('[data-key="e391"]') === window.__built.get('e391')), 'the same element came back');
    await page.keyboard.press('Escape');
    // Back to where the view was, and then to the end: what comes near returns as it was, where it was.
    await page.evaluate(
      ({ sel, top }) => {
        document.querySelector(sel).scrollTop = top;
      },
      { sel: scroller, top: parked.top },
    );
    await page.waitForFunction(() => !document.querySelector('[data-key="e391"]'));
    const again = await page.evaluate((sel) => document.querySelector(sel).scrollHeight, scroller);
    assert.ok(Math.abs(again - parked.height) <= 1, `blocks are as tall as the entries they hold: ${parked.height} -> ${again}`);
    for (let i = 0; i < 200; i++) {
      const done = await page.evaluate(
        (sel) =>
          new Promise((r) =>
            requestAnimationFrame(() => {
              const s = document.querySelector(sel);
              s.scrollTop += 150;
              r(s.scrollTop + s.clientHeight >= s.scrollHeight - 1);
            }),
          ),
        scroller,
      );
      if (done) break;
    }
    await page.waitForFunction(() => [...window.__built.keys()].every((k) => document.querySelector(`[data-key="${k}"]`)));
    const back = await page.evaluate(() => {
      const end = document.querySelector('.entries').getBoundingClientRect().bottom;
      return Object.fromEntries(
        [...window.__built].map(([k, el]) => [
          k,
          { same: document.querySelector(`[data-key="${k}"]`) === el, h: el.getBoundingClientRect().height, fromEnd: end - el.getBoundingClientRect().top },
        ]),
      );
    });
    for (const [k, b] of Object.entries(bottom)) {
      assert.ok(back[k].same, `${k} came back as the same element`);
      assert.ok(Math.abs(back[k].h - b.h) < 0.5 && Math.abs(back[k].fromEnd - b.fromEnd) < 0.5, `${k} is where it was: ${JSON.stringify(b)} -> ${JSON.stringify(back[k])}`);
    }
  });
  test('long chats: a parked entry keeps streaming, and entries arriving meanwhile land after it, in order', async ({ open }) => {
    const { page, send, flush } = await open({ height: 700 });
    const all = [];
    for (let i = 0; i < 300; i++)
      all.push(i % 2 ? message('agent_message', `e${i}`, `Answer **${i}**\n\n${'Some more text. '.repeat(1 + (i % 7))}`) : message('user_message', `e${i}`, `Question ${i}`));
    await send(snapshot(all));
    await flush();
    const scroller = 'section[aria-label="Conversation"]';
    for (let i = 0; i < 60; i++)
      await page.evaluate(
        (sel) =>
          new Promise((r) =>
            requestAnimationFrame(() => {
              document.querySelector(sel).scrollTop -= 150;
              r();
            }),
          ),
        scroller,
      );
    await page.waitForFunction(() => !document.querySelector('[data-key="e299"]'));
    // The agent goes on writing into the last entry, and a new turn arrives, while the user reads above.
    await send(patch({ op: 'appendText', key: 'e299', text: ' Streamed while parked.' }));
    await send(
      patch({ op: 'insert', index: 300, entry: message('user_message', 'e300', 'And now?') }, { op: 'insert', index: 301, entry: message('agent_message', 'e301', 'Here.') }),
    );
    await flush();
    assert.ok(await page.evaluate(() => !document.querySelector('[data-key="e299"]')), 'e299 is still parked');
    await page.evaluate((sel) => {
      const s = document.querySelector(sel);
      s.scrollTop = s.scrollHeight;
    }, scroller);
    await page.waitForFunction(() => /Streamed while parked\./.test(document.querySelector('[data-key="e299"]')?.textContent ?? ''));
    const keys = await page.evaluate(() => [...document.querySelectorAll('[role="article"][data-key]')].map((el) => Number(el.dataset.key.slice(1))));
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => a - b),
      'entries in transcript order',
    );
    assert.deepEqual(keys.slice(-3), [299, 300, 301], 'the new entries come after the one that was parked');
    assert.equal(await page.evaluate(() => window.__acpChat.transcript.entries.length), 302);
  });

  test('recovery panel: a notice about an entry (not delivered, late) is drawn below it with its buttons, not above the transcript', async ({ open }) => {
    const { page, send, flush } = await open();
    const undelivered = {
      key: 'undelivered',
      severity: 'warning',
      title: 'This message was not delivered: the agent stopped before taking it.',
      actions: [
        { id: 'resend', label: 'Resend' },
        { id: 'edit', label: 'Edit' },
      ],
      fill: 'fix the bug',
      entryKey: 'u1',
    };
    const other = { key: 'recovery', severity: 'warning', title: 'Demo stopped unexpectedly and was restarted (attempt 1 of 3).' };
    await send(
      snapshot(
        [message('user_message', 'u0', 'first'), message('agent_message', 'a0', 'answer'), message('user_message', 'u1', 'fix the bug')],
        panel({ notices: [other, undelivered] }),
      ),
    );
    await flush();
    const onEntry = page.locator('[data-key="u1"] + .entry-notice');
    await onEntry.waitFor();
    assert.match(await onEntry.textContent(), /not delivered/);
    assert.equal(await page.locator('section.notices').getByText('not delivered').count(), 0, 'not in the notices above');
    assert.equal(await page.locator('section.notices').getByText('restarted').count(), 1, 'other notices stay above');
    await onEntry.getByRole('button', { name: 'Resend' }).click();
    await page.waitForFunction(() => window.__host.posted.some((m) => m.type === 'noticeAction' && m.action === 'resend'));
    // Gone with its notice; a snapshot (rebuilding the list) draws it again.
    await send(patch({ op: 'panel', panel: { notices: [other] } }));
    await flush();
    assert.equal(await page.locator('.entry-notice').count(), 0);
    await send(
      snapshot(
        [message('user_message', 'u1', 'fix the bug'), message('agent_message', 'a1', 'late words')],
        panel({ notices: [{ key: 'late', severity: 'info', title: 'Late: Demo sent this after the turn was shown as cancelled.', entryKey: 'a1' }] }),
      ),
    );
    await flush();
    await page.locator('[data-key="a1"] + .entry-notice').getByText('Late:').waitFor();
  });

  test('recovery panel: after a reload mid-turn the permission card is marked expired (no buttons) and the prompt interrupted', async ({ open }) => {
    const { page, send, flush } = await open();
    const expired = { severity: 'info', title: 'Permission request expired: the agent that asked is no longer waiting.', description: 'Nothing was allowed.', entryKey: 't1' };
    const interrupted = {
      severity: 'warning',
      title: 'Interrupted: this turn was running when the window closed; it was not resumed.',
      description: 'Send a message to go on.',
      entryKey: 'u1',
    };
    await send(
      snapshot(
        [message('user_message', 'u1', 'edit the notes'), toolCall('t1', { title: 'Edit notes', toolKind: 'edit', status: 'pending' })],
        panel({ notices: [expired, interrupted] }),
      ),
    );
    await flush();
    await page.locator('[data-key="t1"] + .entry-notice').getByText('Permission request expired').waitFor();
    await page.locator('[data-key="u1"] + .entry-notice').getByText('Interrupted:').waitFor();
    assert.equal(await page.locator('[data-key="t1"]').getByRole('button', { name: /Allow/ }).count(), 0, 'nothing to click on the expired card');
    assert.equal(await page.locator('section.notices').getByText('expired').count(), 0, 'not in the notices above');
  });
}
