// The polish tour: one VS Code session (protocol 2, the demo agent) that walks what a new user tripped over
// in their first hour and checks the fixed state of each, with one screenshot per item in
// test-results/polish/item-NN-<what>.png (look at them: they are the review's evidence).
// Steps run on after a failed one (each says what it checked); the last stdout line is `N passed, N failed`.
//   node test/e2e/ui-polish.mjs [FILTER,...]   (only the steps whose name contains one of them, and the setup steps)
//   UI_FROM=folder: load the extension from the repo even when dist/acp-chat.vsix exists (as ui-check.mjs).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chatFrame, frameWith, launchBrowser, log, painted, paletteCommand, reloadWindow, root, sendPrompt, startCodeServer, stepRunner, workbenchUrl } from './host.mjs';
import { until } from '../helpers/until.mjs';

const vsixPath = path.join(root, 'dist/acp-chat.vsix');
const useVsix = existsSync(vsixPath) && process.env.UI_FROM !== 'folder';
const shots = path.join(root, 'test-results/polish');
mkdirSync(shots, { recursive: true });
const filters = (process.argv[2] ?? '').split(',').filter(Boolean);
const missingAgent = { id: 'missing', name: 'Missing agent', command: '/nonexistent/acp-agent' };

// Steps after a failed one still run (each checks one item); a failed setup step stops the run.
const steps = stepRunner({
  keepGoing: (name) => !name.startsWith('setup:'),
  onFail: (name) => page.screenshot({ path: path.join(shots, `failure-${name.slice(0, 7).replace(/\W+/g, '-')}.png`) }),
  only: filters,
});
const step = steps.step;

const shot = async (file) => {
  await painted(page);
  await page.screenshot({ path: path.join(shots, file) });
};

/** Every chat webview frame now in the page. */
async function chatFrames() {
  const out = [];
  for (const f of page.frames()) {
    if (f.isDetached()) continue;
    if (
      (await f
        .locator('textarea[aria-label="Prompt"]')
        .count()
        .catch(() => 0)) > 0
    )
      out.push(f);
  }
  return out;
}

/**
 * The chat in the editor area: a chat frame whose prompt box is on screen and wider than a side bar's (the
 * side bar may show a chat too, and page.frames() lists the frames in no fixed order).
 */
function editorChatFrame(timeoutMs) {
  return until(
    async () => {
      let best;
      for (const f of await chatFrames()) {
        const box = await f
          .locator('textarea[aria-label="Prompt"]')
          .boundingBox()
          .catch(() => null);
        if (box && box.width > 500 && (!best || box.width > best.width)) best = { f, width: box.width };
      }
      return best?.f;
    },
    'the chat in the editor area',
    timeoutMs,
  );
}

const send = (f, text) => sendPrompt(f, text);
const command = (title) => paletteCommand(page, title);

const idle = (f) => f.locator('.turn.turn-idle').waitFor({ timeout: 60_000 });

/** A new, empty chat with the demo agent, alone in the editor area at the usual size, its turn idle. */
async function newDemoChat() {
  await page.setViewportSize({ width: 1400, height: 900 });
  await command('View: Close All Editor Groups');
  await command('ACP: Select Agent');
  await page.locator('.quick-input-widget input').fill('Demo agent');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo agent' }).first().click();
  await command('ACP: New Chat');
  const chat = await until(async () => {
    for (const f of await chatFrames())
      if ((await f.locator('.agent-name-text', { hasText: 'Demo agent' }).count()) > 0 && (await f.locator('[data-kind="user_message"]').count()) === 0) return f;
    return undefined;
  }, 'a new demo chat');
  await idle(chat);
  return chat;
}
const groups = () => page.locator('.editor-group-container').count();

/** Opens `file` through Quick Open and selects from its first line with `keys` (e.g. Shift+End). */
async function selectInFile(file, keys) {
  // Quick Open can close under the click when a webview shown just before takes the focus (CI saw the click
  // land on the chat, and no editor came): the file's tab becoming active is the fact, else open it again.
  const tab = page.locator('.editor-group-container .tab.active', { hasText: file });
  for (let i = 0; (await tab.count()) === 0; i++) {
    if (i === 5) throw new Error(`${file} did not open from Quick Open in ${i} attempts`);
    if (i > 0) {
      log(`Quick Open again for ${file} (attempt ${i + 1})`);
      await page.keyboard.press('Escape');
    }
    await page.keyboard.press('Control+p');
    await page.locator('.quick-input-widget input').fill(file);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first();
    await row.waitFor({ timeout: 20_000 });
    if (await row.isVisible()) await row.click({ timeout: 5_000 }).catch(() => undefined);
    await tab
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
  }
  // The keys count only once the editor has the focus: a webview that takes it as it loads swallows them, and
  // Add Selection to Chat then finds no selection (CI saw no chip come). The status bar's "(N selected)" is the
  // fact; else click and type again.
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  const selected = page.locator('[id="status.editor.selection"]', { hasText: /selected/ });
  for (let i = 0; ; i++) {
    await lines.waitFor({ timeout: 20_000 });
    await lines.click();
    await page.keyboard.press('Control+Home');
    for (const key of keys) await page.keyboard.press(key);
    const ok = await selected
      .first()
      .waitFor({ timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    if (ok) return;
    if (i === 4) throw new Error(`no selection in ${file} after ${i + 1} attempts`);
    log(`select in ${file} again (attempt ${i + 2})`);
  }
}

const cs = await startCodeServer({
  vsix: useVsix ? vsixPath : undefined,
  settings: { 'acpChat.agents': [missingAgent], 'acpChat.protocolVersion': 2 },
});
// The notes the demo agent edits exist before its turn, so review in the editor shows a change to a file
// (not a new one) and Undo leaves the file there for the later steps.
writeFileSync(path.join(cs.dirs.ws, 'demo-edit.txt'), '# Notes\n\nThe first line of the notes.\nThe second line.\n');
const browser = await launchBrowser(cs);
// A context of its own, not browser.newPage()'s: item 3 opens a second window in the same context.
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(30_000);
page.on('pageerror', (e) => log('page error:', e.message));
let frame;
try {
  // The first load takes long on a loaded machine.
  await page.goto(workbenchUrl(cs, { dev: !useVsix }), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });

  await step('setup: a chat with the demo agent', async () => {
    await command('ACP: Open Chat');
    frame = await chatFrame(page, 60_000);
    await frame.locator('.agent-name-text', { hasText: 'Demo agent' }).waitFor({ timeout: 30_000 });
  });

  await step('item 11: the empty prompt box holds its one line without scroll arrows', async () => {
    const box = frame.locator('textarea[aria-label="Prompt"]');
    const m = await box.evaluate((t) => ({ scroll: t.scrollHeight, client: t.clientHeight }));
    if (m.scroll > m.client) throw new Error(`the empty prompt box scrolls: ${JSON.stringify(m)}`);
    await shot('item-11-prompt-box.png');
  });

  await step('setup: a turn that edits and runs a command; the permission card', async () => {
    await send(frame, 'Please edit the notes and run a command.');
    await frame.locator('[data-kind="tool_call"] [data-option-id]').first().waitFor({ timeout: 60_000 });
  });

  await step('setup, item 15: "Allow once" is the one primary permission button', async () => {
    const primary = await frame.locator('.perm-primary').allInnerTexts();
    if (primary.length !== 1 || !/Allow once/.test(primary[0])) throw new Error(`primary buttons: ${JSON.stringify(primary)}`);
    await frame
      .locator('.perm-primary')
      .first()
      .evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot('item-15-permission-buttons.png');
  });

  await step('setup, item 6: after the edit turn no edited file opened; the chat keeps its width', async () => {
    const before = await groups();
    await frame.locator('.perm-primary').first().click();
    await frame.locator('[data-kind="agent_message"]', { hasText: 'That is all for this turn' }).first().waitFor({ timeout: 60_000 });
    await idle(frame);
    if ((await groups()) !== before) throw new Error(`the edit opened another editor group (${before} -> ${await groups()})`);
    const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
    if (tabs.some((t) => t.includes('demo-edit.txt'))) throw new Error(`the edited file opened: ${tabs.join(', ')}`);
    await shot('item-06-no-uninvited-editors.png');
  });

  await step('item 8: the v2 edit card reads like a v1 diff (line counts, Open diff, no raw patch headers)', async () => {
    const card = frame.locator('[data-kind="tool_call"]', { has: frame.locator('.open-diff') }).first();
    await card.waitFor({ timeout: 10_000 });
    await card.locator('.diff-stat').first().waitFor({ timeout: 5_000 });
    const text = await card.innerText();
    if (/^(---|\+\+\+|@@)/m.test(text)) throw new Error(`raw patch headers on the card: ${text.slice(0, 200)}`);
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot('item-08-v2-edit-card.png');
  });

  await step("hunks: the edited file shows the agent's change in the editor; Undo on the hunk puts it back and the Changes summary follows", async () => {
    await page.keyboard.press('Control+p');
    await page.locator('.quick-input-widget input').fill('demo-edit.txt');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo-edit.txt' }).first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('Control+Enter'); // beside the chat, which stays in view
    const lens = (text) => page.locator('.monaco-editor .codelens-decoration a').filter({ hasText: new RegExp(`^${text}$`) });
    await lens('Keep All').first().waitFor({ timeout: 30_000 });
    const titles = await page.locator('.monaco-editor .codelens-decoration a').allInnerTexts();
    if (!titles.some((t) => /: 1 change to review$/.test(t)) || !titles.includes('Undo') || !titles.includes('Keep')) throw new Error(`the lenses read ${JSON.stringify(titles)}`);
    await shot('hunks-1-review-in-editor.png');
    await lens('Undo').first().click();
    await lens('Keep All').first().waitFor({ state: 'detached', timeout: 30_000 });
    const text = await page.locator('.editor-group-container .monaco-editor .view-lines').last().innerText();
    if (/Edited by the ACP Chat demo agent/.test(text)) throw new Error(`the agent's line is still there: ${text}`);
    await frame.locator('.change-row[data-state="undone"]').first().waitFor({ timeout: 30_000 });
    await shot('hunks-2-undone-in-step.png');
    await command('View: Close Editor Group');
  });

  await step('item 10: people see names (terminal, tab, tree root), not internal ids', async () => {
    const head = frame.locator('.tool-terminal .terminal-head').first();
    await head.waitFor({ timeout: 10_000 });
    const label = await head.innerText();
    if (/term-/.test(label)) throw new Error(`the terminal label shows an id: ${label}`);
    const tab = await page.locator('.tabs-container .tab.active').first().innerText();
    if (!/Please edit the notes|Chat 1/.test(tab)) throw new Error(`the tab reads "${tab}"`);
    await head.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.locator('.activitybar .action-label[aria-label^="ACP Chat"]').first().click();
    const root = page.locator('.sidebar .monaco-list-row').first();
    await root.waitFor({ timeout: 20_000 });
    const rootLabel = await root.innerText();
    if (/demo-[a-z0-9]+-\d/.test(rootLabel)) throw new Error(`the tree's root shows the session id: ${rootLabel}`);
    await shot('item-10-readable-names.png');
  });

  await step('item 7: a notice repeated each turn shows once, with its count', async () => {
    await send(frame, 'Say hello again.');
    await idle(frame);
    const banner = frame.locator('.notice', { hasText: 'speaks the ACP v2 draft' });
    if ((await banner.count()) !== 1) throw new Error(`the v2 notice is shown ${await banner.count()} times`);
    await banner.locator('.notice-count', { hasText: '×2' }).waitFor({ timeout: 10_000 });
    await shot('item-07-notice-once.png');
  });

  await step('item 9: a rejected edit reads Rejected; after Cancel the plan stops spinning', async () => {
    await send(frame, 'Please edit the notes again.');
    const reject = frame.locator('[data-option-id]', { hasText: 'Reject' }).first();
    await reject.waitFor({ timeout: 60_000 });
    await reject.click();
    await idle(frame);
    await frame.locator('[data-kind="tool_call"] .status', { hasText: 'Rejected' }).first().waitFor({ timeout: 15_000 });
    await send(frame, 'Please edit the notes once more.');
    await frame.locator('[data-option-id]').first().waitFor({ timeout: 60_000 });
    await frame.locator('button[aria-label="Cancel"]').click();
    await idle(frame);
    const spinning = await frame.locator('.plan .codicon-modifier-spin, .plan .codicon-loading').count();
    if (spinning !== 0) throw new Error(`the plan still spins on ${spinning} entries after Cancel`);
    await frame
      .locator('[data-kind="tool_call"] .status', { hasText: 'Rejected' })
      .first()
      .evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot('item-09-rejected-and-cancelled.png');
  });

  await step('undo all: after Undo All of a turn that changed two files (an edit, a formatter run that reported its patch), one Ctrl+Z brings both back', async () => {
    // Two changed files, none created (a created one would make the edit a file operation too).
    const formatted = path.join(cs.dirs.ws, 'demo-format.txt');
    const notes = path.join(cs.dirs.ws, 'demo-edit.txt');
    writeFileSync(formatted, 'const  a =   1;\nconst b  = 2;   \n');
    const disk = () => [readFileSync(notes, 'utf8'), readFileSync(formatted, 'utf8')].join('\u0000');
    const before = disk();
    await send(frame, 'Please edit the notes and run the formatter.');
    await frame.locator('.perm-primary').first().waitFor({ timeout: 60_000 });
    await frame.locator('.perm-primary').first().click();
    await idle(frame);
    const agents = disk();
    if (!agents.endsWith('\u0000const a = 1;\nconst b = 2;\n') || agents.split('\u0000')[0] === before.split('\u0000')[0])
      throw new Error(`the turn did not change both files: ${JSON.stringify(agents)}`);
    const changes = frame.locator('section.changes').last();
    const rows = await changes.locator('.change-path').allInnerTexts();
    if (rows.join() !== 'demo-edit.txt,demo-format.txt') throw new Error(`the turn's Changes list ${rows.join(', ')}`);
    await changes.locator('[data-change-action="undo"][data-change-index="all"]').click();
    await until(() => disk() === before, 'Undo All put both files back');
    // One Ctrl+Z in one of the files, opened from its tool card (the other file is not open in an editor;
    // Quick Open may not list a file this new yet).
    await frame.locator('[data-kind="tool_call"] button.diff-path', { hasText: 'demo-format.txt' }).last().click();
    const lines = page
      .locator('.editor-group-container .monaco-editor .view-lines')
      .filter({ hasText: /const\s+a\s+=\s+1;/ })
      .last();
    await lines.waitFor({ timeout: 20_000 });
    await lines.click();
    await page.keyboard.press('Control+z');
    // VS Code may ask whether to undo across all files (a workbench dialog; VS Code 1.139 undoes an
    // extension's workspace edit across its files without asking): either way every file comes back.
    const dialog = page.locator('.monaco-dialog-box');
    const how = await until(async () => ((await dialog.count()) > 0 ? 'asked' : disk() === agents ? 'at once' : undefined), 'the undo, or its question', 30_000);
    if (how === 'asked') {
      await shot('undo-all-1-asked.png');
      await dialog.getByRole('button', { name: /Undo in 2 Files/ }).click();
      await command('File: Save All');
    }
    log(`undo all: one Ctrl+Z undid both files ${how}`);
    await until(() => disk() === agents, "both files back to the agent's text after one Ctrl+Z", 30_000);
    await until(async () => (await lines.innerText()).replace(/\u00a0/g, ' ').includes('const a = 1;'), "the agent's text in the editor");
    // The review follows the files: the Changes list and the tool cards leave "Undone".
    await until(async () => (await changes.locator('.change-row[data-state="undone"]').count()) === 0, 'the Changes list leaves Undone after the Ctrl+Z', 30_000);
    const card = (name) => frame.locator('[data-kind="tool_call"]', { has: frame.locator('button.diff-path', { hasText: name }) }).last();
    for (const name of ['demo-edit.txt', 'demo-format.txt'])
      await until(async () => (await card(name).locator('[data-review]').count()) === 0, `the tool card of ${name} leaves Undone after the Ctrl+Z`, 30_000);
    await shot('undo-all-2-one-ctrl-z.png');
    await command('View: Close Editor Group');
  });

  await step("item 14: the export nests the agent's own headings under ## Agent", async () => {
    await command('ACP: Export Transcript as Markdown');
    const editor = page.locator('.editor-group-container .monaco-editor').first();
    await editor.waitFor({ timeout: 20_000 });
    await page.locator('.view-lines', { hasText: '## Agent' }).first().waitFor({ timeout: 20_000 });
    // The demo's "## What I can show" sits under the export's "## Agent", two levels down.
    const lines = (await page.locator('.view-lines .view-line').allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' ').trim());
    if (!lines.includes('#### What I can show') || lines.includes('## What I can show'))
      throw new Error(`the agent's heading is not nested: ${lines.filter((l) => l.includes('What I can show')).join(' | ')}`);
    await shot('item-14-export-headings.png');
    await command('View: Revert and Close Editor');
  });

  await step('items 1, 2, 3: debug views share one place, are valid and rendered; the chat keeps its width', async () => {
    await command('ACP: Show Protocol Log');
    await page
      .locator('.tabs-container .tab.active', { hasText: /Protocol/ })
      .first()
      .waitFor({ timeout: 20_000 });
    const title = await page.locator('.tabs-container .tab.active').first().innerText();
    if (/\.jsonl?/.test(title)) throw new Error(`the protocol view is titled by its file: ${title}`);
    const problems = await page
      .locator('#status\\.problems')
      .first()
      .innerText()
      .catch(() => '');
    await shot('item-02-protocol-view-valid.png');
    if (/[1-9]/.test(problems)) throw new Error(`the status bar counts problems: ${problems}`);
    await command('ACP: Show Agent Capabilities');
    await until(async () => {
      for (const f of page.frames()) {
        if (f.isDetached()) continue;
        const heading = f.locator('h1', { hasText: 'capabilities and behaviour' }).first();
        if ((await heading.count().catch(() => 0)) > 0 && (await f.locator('table').count()) > 0) return true;
      }
      return false;
    }, 'the rendered capabilities');
    await painted(page);
    await shot('item-03-capabilities-rendered.png');
    // An editor opened beside a chat is no split: the chat is not copied into its group.
    if ((await chatFrames()).length !== 1) throw new Error(`${(await chatFrames()).length} chat views after opening the debug views`);
    const n = await groups();
    const widths = await page.locator('.editor-group-container').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
    if (n > 2) throw new Error(`the debug views opened ${n} groups: ${widths.join(', ')}`);
    if (Math.min(...widths) < 420) throw new Error(`a group is squeezed: ${widths.join(', ')}`);
    await shot('item-01-debug-views-one-place.png');
    // Back to the chat alone, for the next steps.
    await command('View: Close All Editor Groups');
    await command('ACP: Open Chat');
    frame = await chatFrame(page, 30_000);
    await until(async () => (await groups()) === 1, 'one editor group');
  });

  await step('item 13: Add Selection to Chat keeps the editor it came from in view', async () => {
    // The file opens over the chat, in the chat's own group (the case that hid the editor).
    await selectInFile('demo-edit.txt', ['Shift+ArrowDown', 'Shift+End']);
    await command('ACP: Add Selection to Chat');
    const chip = await until(async () => {
      for (const f of await chatFrames()) if ((await f.locator('.context-chip', { hasText: /demo-edit\.txt:1/ }).count()) > 0) return f;
      return undefined;
    }, 'the selection chip in a chat');
    const visibleEditor = await page.locator('.editor-group-container .tab.active', { hasText: 'demo-edit.txt' }).count();
    if (visibleEditor !== 1) throw new Error('the editor the selection came from is no longer in view');
    if (!(await chip.locator('textarea[aria-label="Prompt"]').isVisible())) throw new Error('the chat is not in view');
    await shot('item-13-selection-beside-editor.png');
  });

  await step('item 5: Split Editor Right on a chat tab shows the same chat in the new group', async () => {
    await command('View: Close All Editor Groups');
    await command('ACP: Open Chat');
    frame = await chatFrame(page, 30_000);
    await until(async () => (await groups()) === 1, 'one editor group');
    await page.locator('.tabs-container .tab.active').first().click();
    await command('View: Split Editor Right');
    await until(async () => (await groups()) === 2, 'two editor groups');
    const frames = await until(async () => ((await chatFrames()).length === 2 ? chatFrames() : undefined), 'a chat in each group');
    if ((await page.locator('.editor-group-container.empty').count()) !== 0) throw new Error('an editor group is empty');
    // One chat, two views: a prompt sent in one shows in both.
    await send(frames[1], 'Sent from the split view.');
    await frames[0].locator('[data-kind="user_message"]', { hasText: 'Sent from the split view.' }).first().waitFor({ timeout: 30_000 });
    await idle(frames[0]);
    await idle(frames[1]);
    await shot('item-05-split-chat.png');
  });

  await step('item 4: the side-bar chat works 300 px wide and ~250 px tall; the tree makes room', async () => {
    await command('View: Close All Editor Groups');
    await command('ACP: Show Chat in Side Bar');
    await page.locator('.sidebar .pane-header', { hasText: 'ACP Messages' }).first().waitFor({ state: 'detached', timeout: 20_000 });
    // The side bar's chat view at ~250 px: the window's height less the title, status and view headers (ACP Chat's
    // container also holds the collapsed History view since issue 42, hence 410 where 352 was enough before).
    await page.setViewportSize({ width: 1000, height: 410 });
    const side = await until(async () => {
      for (const f of await chatFrames()) if (await f.evaluate(() => innerHeight < 330)) return f;
      return undefined;
    }, 'the side bar chat');
    const m = await side.evaluate(() => {
      const t = document.querySelector('textarea[aria-label="Prompt"]');
      const r = t.getBoundingClientRect();
      return { width: innerWidth, height: innerHeight, bottom: Math.round(r.bottom), scroll: t.scrollHeight, client: t.clientHeight };
    });
    log(`side bar chat view: ${JSON.stringify(m)}`);
    if (m.height > 330 || m.height < 200) throw new Error(`the view is ${m.height} px tall, not about 250`);
    if (m.bottom > m.height) throw new Error(`the prompt box is cut off: ${JSON.stringify(m)}`);
    if (m.scroll > m.client) throw new Error(`the empty prompt box scrolls: ${JSON.stringify(m)}`);
    await shot('item-04-sidebar-chat.png');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  await step('item 12: Add Agent shows whole launch commands; a missing agent says why, not "Ask the agent anything"', async () => {
    await command('ACP: Add Agent…');
    // The list has loaded (the test host's registry setting is empty: the built-in list) with whole commands.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'npx' }).first().waitFor({ timeout: 20_000 });
    await shot('item-12-add-agent.png');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await command('ACP: Select Agent');
    await page.locator('.quick-input-widget input').fill('Missing agent');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Missing agent' }).first().click();
    await command('ACP: Open Chat'); // no chat tab was showing: the agent's chat opens in one
    const missing = await until(async () => {
      for (const f of await chatFrames()) if ((await f.locator('.agent-name-text', { hasText: 'Missing agent' }).count()) > 0) return f;
      return undefined;
    }, "the missing agent's chat");
    await missing.locator('.banner').first().waitFor({ timeout: 30_000 });
    if (
      await missing
        .locator('.empty-state')
        .isVisible()
        .catch(() => false)
    )
      throw new Error('the empty chat still says "Ask the agent anything" above the error');
    await shot('item-12-missing-agent.png');
  });

  await step('r2 item 7: Add Agent offline: the built-in list with its first label in view, the reason in words, no tooltip left up', async () => {
    // A registry on a port of this machine just closed: the fetch fails at once, as with no network. (Not a
    // well-known port: fetch refuses those itself, with a "bad port" the user never sees.)
    const port = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
        s.close(() => resolve(port));
      });
    });
    const machine = path.join(cs.dirs.user, 'Machine/settings.json');
    const saved = readFileSync(machine, 'utf8');
    writeFileSync(machine, JSON.stringify({ ...JSON.parse(saved), 'acpChat.agentRegistry': `http://127.0.0.1:${port}/registry.json` }, null, 1));
    try {
      const rows = page.locator('.quick-input-list .monaco-list-row');
      const title = page.locator('.quick-input-widget .quick-input-title');
      // The setting is read when the picker opens: the first opening may still race the file watcher.
      await until(
        async () => {
          await command('ACP: Add Agent…');
          const offline = await title
            .filter({ hasText: 'could not be fetched' })
            .waitFor({ timeout: 10_000 })
            .then(() => true)
            .catch(() => false);
          if (!offline) await page.keyboard.press('Escape');
          return offline;
        },
        'Add Agent… says the registry could not be fetched',
        60_000,
      );
      await rows.first().waitFor();
      await painted(page);
      const said = [await title.innerText(), ...(await rows.allInnerTexts())];
      if (said.some((t) => /fetch failed/i.test(t))) throw new Error(`a raw "fetch failed": ${said.join(' | ')}`);
      if (!said[0]?.includes('refused the connection')) throw new Error(`the title does not say why: ${said[0]}`);
      // The first row is a built-in agent whose label is whole and not under a separator's line.
      const first = rows.first();
      const label = first.locator('.label-name').first();
      if (!(await label.isVisible())) throw new Error('the first row has no visible label');
      const [row, name] = [await first.boundingBox(), await label.boundingBox()];
      if (!row || !name || name.y < row.y || name.y + name.height > row.y + row.height)
        throw new Error(`the first label is cut: row ${JSON.stringify(row)}, label ${JSON.stringify(name)}`);
      // The placeholder and the title fit their boxes (the placeholder was cut mid-URL): their text, in their
      // own fonts, is no wider.
      const fit = await page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        const input = document.querySelector('.quick-input-widget input');
        const head = document.querySelector('.quick-input-widget .quick-input-title');
        if (!ctx || !(input instanceof HTMLInputElement) || !(head instanceof HTMLElement)) return [];
        const width = (el, text) => {
          ctx.font = getComputedStyle(el).font;
          return ctx.measureText(text).width;
        };
        return [
          { what: 'placeholder', text: input.placeholder, width: width(input, input.placeholder), box: input.clientWidth },
          { what: 'title', text: head.innerText, width: head.scrollWidth, box: head.clientWidth },
        ];
      });
      const cut = fit.filter((f) => f.width > f.box);
      if (fit.length !== 2 || cut.length > 0) throw new Error(`cut: ${JSON.stringify(cut.length ? cut : fit)}`);
      await shot('r2-item-07-add-agent-offline.png');
      // A pointer resting on the Refresh button shows its tooltip; closing the picker takes it away.
      await page.locator('.quick-input-widget .quick-input-titlebar .action-label').last().hover();
      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      await until(async () => (await page.locator('.monaco-hover:visible, .workbench-hover-container:visible').count()) === 0, 'no tooltip is left up', 10_000);
    } finally {
      writeFileSync(machine, saved);
    }
  });

  await step('item 16: the extension host logged no PendingMigrationError', async () => {
    const walk = (d) =>
      readdirSync(d).flatMap((f) => {
        const p = path.join(d, f);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
    const logs = walk(path.join(cs.dirs.user, 'logs')).filter((f) => f.endsWith('.log'));
    const hit = logs.find((f) => readFileSync(f, 'utf8').includes('PendingMigrationError'));
    if (hit) throw new Error(`PendingMigrationError in ${hit}`);
    if (!logs.some((f) => /exthost\.log$/.test(f))) throw new Error(`no extension host log among ${logs.length} logs`);
    await command('Developer: Show Logs...');
    await page.locator('.quick-input-widget input').fill('Extension Host');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Extension Host' }).first().click();
    await page.locator('.panel .monaco-editor .view-lines').first().waitFor({ timeout: 20_000 });
    await shot('item-16-extension-host-log.png');
  });
  await step('rewind: Edit and Rerun offers the rollback by file and opens the branch; Retry after a cancel; Regenerate', async () => {
    const chat = await newDemoChat();
    await send(chat, 'Say hello.');
    await idle(chat);
    await send(chat, 'Please edit the notes.');
    await chat.locator('.perm-primary').first().click();
    await idle(chat);
    // Regenerate is offered under the answered prompt; Retry only after a failed or cancelled turn.
    await chat.getByRole('button', { name: /^Regenerate/ }).waitFor({ timeout: 10_000 });
    if (await chat.getByRole('button', { name: /^Retry/ }).isVisible()) throw new Error('Retry is offered after a turn that finished');
    // Retry after a cancel: the same prompt again, in this chat.
    await send(chat, 'Please edit the notes again.');
    await chat.locator('[data-option-id]').first().waitFor({ timeout: 60_000 });
    await chat.locator('button[aria-label="Cancel"]').click();
    await idle(chat);
    const retry = chat.getByRole('button', { name: /^Retry/ });
    await retry.waitFor({ timeout: 10_000 });
    await shot('rewind-1-retry-regenerate.png');
    await retry.click();
    await chat.locator('[data-option-id]', { hasText: 'Reject' }).first().click({ timeout: 60_000 });
    await idle(chat);
    const asked = await chat.locator('[data-kind="user_message"]', { hasText: 'Please edit the notes again.' }).count();
    if (asked !== 2) throw new Error(`Retry sent the prompt ${asked - 1} times`);
    // Edit and Rerun the message that edited the file: the rollback offer lists the file; the branch
    // carries the turn before it (the agent cannot fork at a message).
    const edited = chat.locator('[data-kind="user_message"]', { hasText: 'Please edit the notes.' }).first();
    await edited.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await edited.hover();
    await edited.locator('button.edit-message').click();
    const box = chat.locator('textarea[aria-label="Prompt"]');
    await chat.locator('.prompt-editing').waitFor({ timeout: 10_000 });
    await box.fill('Please edit the notes, but say why first.');
    await box.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const asks = await dialog.innerText();
    if (!/Files put back: demo-edit\.txt/.test(asks)) throw new Error(`the rollback offer does not list the file: ${asks}`);
    await shot('rewind-2-rollback-offer.png');
    await dialog.getByRole('button', { name: 'Undo Changes and Branch' }).click();
    const branch = await until(
      async () => {
        for (const f of await chatFrames()) if ((await f.locator('details.carried').count()) > 0) return f;
        return undefined;
      },
      'the branch chat',
      60_000,
    );
    await branch.locator('[data-option-id]').first().waitFor({ timeout: 60_000 });
    await branch.locator('.perm-primary').first().click();
    await idle(branch);
    await branch.locator('details.carried summary').click();
    await branch.locator('.carried-markdown').waitFor({ timeout: 10_000 });
    // Its provenance: the branch's message tree says where it was branched from.
    // The tree follows the focused chat; it is in the side bar, or in the panel area while the side bar
    // shows a chat (item 4 leaves it so): VS Code's focus command for the view finds it in either place.
    await branch.locator('textarea[aria-label="Prompt"]').click();
    await command('Focus on ACP Messages View');
    await page.locator('.sidebar .monaco-list-row, .panel .monaco-list-row', { hasText: 'forked from' }).first().waitFor({ timeout: 30_000 });
    await branch
      .locator('[data-kind="user_message"]')
      .first()
      .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('rewind-3-branch.png');
    // Regenerate on the branch: another branch at its last prompt (nothing to undo: the edit was allowed, so asked).
    const tabs = () => page.locator('.tabs-container .tab').count();
    const before = await tabs();
    await branch.getByRole('button', { name: /^Regenerate/ }).click();
    const again = page.locator('.monaco-dialog-box');
    if (
      await again.waitFor({ timeout: 15_000 }).then(
        () => true,
        () => false,
      )
    )
      await again.getByRole('button', { name: 'Branch, Keep Files' }).click();
    await until(async () => (await tabs()) > before, "the regenerated branch's tab", 30_000);
  });

  await step(
    "restore in place and code blocks: a block's Copy and Apply (a diff preview first); Restore to Here folds the later turn and gives its message back to the prompt box",
    async () => {
      const chat = await newDemoChat();
      // The first Enter may take the command from the completion list, the second sends it.
      const box = chat.locator('textarea[aria-label="Prompt"]');
      await box.fill('/code');
      await box.press('Enter');
      if ((await box.inputValue()).trim() !== '') await box.press('Enter');
      await chat.locator('[data-kind="user_message"]', { hasText: '/code' }).first().waitFor({ timeout: 30_000 });
      await idle(chat);
      const block = chat.locator('[data-kind="agent_message"] .code-block').last();
      await block.locator('.code-apply').waitFor({ timeout: 30_000 });
      // Copy: what the clipboard then holds is the block's code.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(cs.url).origin });
      await block.locator('.code-copy').click();
      const copied = await until(async () => {
        const t = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
        return /export function greet/.test(t) ? t : undefined;
      }, 'the copied code');
      if (/```/.test(copied)) throw new Error(`Copy took the fence too: ${copied}`);
      await block.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shot('restore-1-code-block.png');
      // Apply: the diff preview and the question come first; only Apply writes (unsaved, undoable).
      const file = path.join(cs.dirs.ws, 'demo-code.ts');
      await block.locator('.code-apply').click();
      // The question is a notification: a toast first, in the notification center once the toast times out.
      const question = 'Apply the code block to demo-code.ts';
      await page.locator('.tabs-container .tab', { hasText: 'code block (preview)' }).first().waitFor({ timeout: 30_000 });
      await page.locator('.editor-group-container .monaco-diff-editor').first().waitFor({ timeout: 30_000 });
      await page
        .locator('.notification-toast', { hasText: question })
        .waitFor({ timeout: 5_000 })
        .catch(() => command('Notifications: Show Notifications'));
      const ask = page.locator('.notification-toast, .notifications-center .notification-list-item', { hasText: question }).first();
      await ask.waitFor({ timeout: 10_000 });
      await shot('restore-2-apply-preview.png');
      if (existsSync(file) && readFileSync(file, 'utf8') !== '') throw new Error('Apply wrote before the user said so');
      await ask.getByRole('button', { name: 'Apply', exact: true }).click();
      await page.locator('.tabs-container .tab.active', { hasText: 'demo-code.ts' }).first().waitFor({ timeout: 30_000 });
      await until(
        async () => /export\s+function\s+greet/.test(await page.locator('.editor-group-container .monaco-editor .view-lines').last().innerText()),
        'the block in the editor',
      );
      // Undo in the editor takes the applied block back (to the empty file Apply created): the next steps start clean.
      await page.locator('.editor-group-container .monaco-editor .view-lines').last().click();
      await page.keyboard.press('Control+z');
      await until(async () => !/greet/.test(await page.locator('.editor-group-container .monaco-editor .view-lines').last().innerText()), 'the apply undone');
      await command('Notifications: Clear All Notifications');
      await command('View: Close Editor'); // the chat's tab stays
      // Restore to Here on the second message: its turn is folded away and its text waits in the prompt box.
      await send(chat, 'Say hello, then stop.');
      await idle(chat);
      const second = chat.locator('[data-kind="user_message"]', { hasText: 'Say hello, then stop.' }).first();
      await second.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      // By keyboard (the message's actions show while one has focus): no hover to lose on a loaded machine.
      await second.locator('button.restore-here').focus();
      await second.locator('button.restore-here').press('Enter');
      await chat.locator('.fold-row .fold-toggle', { hasText: 'Restored here' }).first().waitFor({ timeout: 30_000 });
      await until(async () => (await box.inputValue()) === 'Say hello, then stop.', 'the restored message in the prompt box');
      await chat.locator('.prompt-context', { hasText: 'Earlier conversation' }).waitFor({ timeout: 10_000 });
      await shot('restore-3-restored-in-place.png');
    },
  );

  // ---- Round 2 (issue 38): what a new user tripped over in their hour. Filter: r2.
  /** The chat webview whose prompt box has the keyboard focus, once one has. */
  const focusedChat = () =>
    until(
      async () => {
        for (const f of await chatFrames())
          if (await f.evaluate(() => document.hasFocus() && document.activeElement?.getAttribute('aria-label') === 'Prompt').catch(() => false)) return f;
        return undefined;
      },
      'a chat whose prompt box has the focus',
      60_000,
    );
  let r2;

  await step('r2 item 1: New Chat and Add Selection to Chat put the caret in the prompt box: the first words typed land there', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await command('View: Close All Editor Groups');
    await command('ACP: New Chat');
    r2 = await focusedChat();
    await page.keyboard.type('typed right away');
    const typed = await r2.locator('textarea[aria-label="Prompt"]').inputValue();
    if (typed !== 'typed right away') throw new Error(`the prompt box holds "${typed}"`);
    await r2.locator('textarea[aria-label="Prompt"]').fill('');
    await selectInFile('demo-edit.txt', ['Shift+End']);
    await page.keyboard.press('Control+Alt+a');
    const f = await focusedChat();
    await f
      .locator('.context-chip', { hasText: /demo-edit\.txt/ })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.keyboard.type('about this line');
    const after = await f.locator('textarea[aria-label="Prompt"]').inputValue();
    if (after !== 'about this line') throw new Error(`after Add Selection the prompt box holds "${after}"`);
    await shot('r2-item-01-caret-in-prompt.png');
    await f.locator('textarea[aria-label="Prompt"]').fill('');
    await command('View: Close All Editor Groups');
    await command('ACP: Open Chat');
    r2 = await editorChatFrame(30_000);
  });

  await step('r2 item 2: sending while scrolled up shows your message; the permission is brought into view; Jump to latest whenever away', async () => {
    r2 ??= await editorChatFrame(30_000);
    for (const p of ['Say hello.', 'Say hello again.']) {
      await send(r2, p);
      await idle(r2);
    }
    const scroller = r2.locator('section[aria-label="Conversation"]');
    await scroller.evaluate((s) => (s.scrollTop = 0));
    await r2.getByRole('button', { name: 'Jump to latest' }).waitFor({ timeout: 10_000 });
    await shot('r2-item-02a-jump-when-away.png');
    await send(r2, 'Please edit the notes, from up there.');
    const mine = r2.locator('[data-kind="user_message"]', { hasText: 'Please edit the notes, from up there.' }).last();
    const perm = r2.locator('.permission').last();
    await perm.waitFor({ timeout: 60_000 });
    const inView = (loc) =>
      loc.evaluate((el) => {
        const s = document.querySelector('section[aria-label="Conversation"]').getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return r.bottom > s.top && r.top < s.bottom;
      });
    await until(() => inView(perm), 'the permission card in view', 20_000);
    if (!(await inView(mine)) && !(await inView(perm))) throw new Error('neither your message nor the permission is in view');
    await shot('r2-item-02b-permission-in-view.png');
    await r2.locator('.perm-primary').last().click();
    await idle(r2);
  });

  await step('r2 item 8: after Esc the turn reads Cancelled, and Retry is offered', async () => {
    r2 ??= await editorChatFrame(30_000);
    await send(r2, 'Please edit the notes, then I cancel.');
    await r2.locator('[data-option-id]').last().waitFor({ timeout: 60_000 });
    await r2.locator('textarea[aria-label="Prompt"]').focus();
    await page.keyboard.press('Escape'); // the first Esc answers the permission (reject); the next cancels
    if ((await r2.locator('.turn.turn-idle').count()) === 0) await page.keyboard.press('Escape');
    await idle(r2);
    await r2
      .locator('[data-testid="turn-end"]', { hasText: /Cancelled/ })
      .waitFor({ timeout: 20_000 })
      .catch(async () => {
        // The agent finished the turn after the rejection before Esc reached it: cancel a fresh one.
        await send(r2, 'Please edit the notes, once more.');
        await r2.locator('[data-option-id]').last().waitFor({ timeout: 60_000 });
        await r2.locator('button[aria-label="Cancel"]').click();
        await idle(r2);
        await r2.locator('[data-testid="turn-end"]', { hasText: /Cancelled/ }).waitFor({ timeout: 20_000 });
      });
    await r2.getByRole('button', { name: /^Retry/ }).waitFor({ timeout: 10_000 });
    await r2.locator('[data-testid="turn-end"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot('r2-item-08-cancelled.png');
  });

  await step('r2 item 6: the title you gave stays after an agent restart and the next prompt; titles are one line', async () => {
    r2 ??= await editorChatFrame(30_000);
    // The chat this step renames is the one focused (earlier steps may leave one in the side bar too).
    await r2.locator('textarea[aria-label="Prompt"]').click();
    const header = r2.locator('.session-title', { hasText: 'My own title' });
    // The input box opens once the chat's agent answered; a focus change before that can close it: ask again then.
    await until(
      async () => {
        await command('ACP: Rename Chat…');
        const input = page.locator('.quick-input-widget input[aria-label^="Rename chat"]');
        if (
          !(await input.waitFor({ timeout: 15_000 }).then(
            () => true,
            () => false,
          ))
        )
          return false;
        if (
          !(await input.fill('My own title', { timeout: 5_000 }).then(
            () => true,
            () => false,
          ))
        )
          return false;
        await input.press('Enter');
        return header.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        );
      },
      'the chat renamed',
      90_000,
    );
    await r2.locator('textarea[aria-label="Prompt"]').click();
    await command('ACP: Restart Agent');
    await idle(r2);
    await send(r2, 'Say hello after the restart.');
    await idle(r2);
    const title = await r2.locator('.session-title').innerText();
    if (title.trim() !== 'My own title') throw new Error(`the chat reads "${title}" after the restart and a prompt`);
    await shot('r2-item-06-user-title-stays.png');
  });

  await step("r2 items 4, 5: a fork is told apart; Archive closes its tab; Unarchive lists it from the client's records after a restart", async () => {
    r2 ??= await editorChatFrame(30_000);
    const first = r2.locator('[data-kind="user_message"]').last();
    await first.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await first.hover();
    await first.locator('button.fork-chat').click();
    const forkTab = page.locator('.tabs-container .tab', { hasText: /\(fork\)/ }).first();
    await forkTab.waitFor({ timeout: 60_000 });
    const titles = await page.locator('.tabs-container .tab').allInnerTexts();
    await until(
      async () => {
        for (const f of await chatFrames())
          if (
            (await f.locator('[data-kind="user_message"]').count()) > 0 &&
            (await f
              .locator('.agent-name-text')
              .isVisible()
              .catch(() => false))
          )
            return true;
        return false;
      },
      "the fork's transcript drawn",
      60_000,
    );
    await shot('r2-item-04a-fork-title.png');
    if (new Set(titles.map((t) => t.trim())).size !== titles.length) throw new Error(`two tabs read the same: ${titles.join(' | ')}`);
    await forkTab.click();
    await command('ACP: Archive Chat');
    await forkTab.waitFor({ state: 'detached', timeout: 30_000 });
    await shot('r2-item-04b-archived-tab-closed.png');
    await command('ACP: Restart Agent');
    await command('ACP: Unarchive Chat…');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: /\(fork\)/ }).first();
    await row.waitFor({ timeout: 30_000 });
    await shot('r2-item-05-unarchive-list.png');
    await row.click();
    await page
      .locator('.tabs-container .tab', { hasText: /\(fork\)/ })
      .first()
      .waitFor({ timeout: 60_000 });
  });

  await step('r2 item 10: a reloaded chat opens where you were (the same message at the top), not at its first turn', async () => {
    await command('View: Close All Editor Groups');
    await command('ACP: Open Chat');
    let f = await editorChatFrame(30_000);
    // /long: the demo agent's long answer. Enter first takes the command from the slash menu, then sends.
    const box = f.locator('textarea[aria-label="Prompt"]');
    await box.fill('/long');
    await until(
      async () => {
        if ((await box.inputValue()).trim()) await box.press('Enter');
        return (await f.locator('[data-kind="user_message"]', { hasText: 'long' }).count()) > 0;
      },
      'the /long prompt sent',
      30_000,
    );
    await idle(f);
    // The entry at the top of the conversation, and how far the view is scrolled into it.
    const top = (fr) =>
      fr.evaluate(() => {
        const s = document.querySelector('section[aria-label="Conversation"]');
        const t = s.getBoundingClientRect().top;
        const el = [...s.querySelectorAll('[role="article"][data-key]')].find((e) => e.getBoundingClientRect().bottom > t + 1);
        return el ? { key: el.dataset.key, offset: Math.round(t - el.getBoundingClientRect().top), gap: s.scrollHeight - s.scrollTop - s.clientHeight } : {};
      });
    const scroller = f.locator('section[aria-label="Conversation"]');
    await scroller.hover();
    for (let i = 0; i < 2; i++) {
      await page.mouse.wheel(0, -300);
      await painted(f);
    }
    const before = await top(f);
    const firstKey = await f.locator('[role="article"][data-key]').first().getAttribute('data-key');
    if (!before.key || before.gap < 200 || before.key === firstKey) throw new Error(`not scrolled to the middle: ${JSON.stringify(before)}`);
    // Typing saves the webview's state at once (the draft with the position), as a scroll does a moment later.
    await f.locator('textarea[aria-label="Prompt"]').pressSequentially('x');
    await reloadWindow(page, command);
    f = await frameWith(page, `[data-key="${before.key}"]`, 'the reloaded chat with the message that was at the top', 120_000);
    await until(async () => (await top(f)).key === before.key, 'the same message at the top after the reload', 30_000).catch(async (e) => {
      throw new Error(`${e.message}: before ${JSON.stringify(before)}, after ${JSON.stringify(await top(f))}`);
    });
    const after = await top(f);
    if (Math.abs(after.offset - before.offset) > 8) throw new Error(`scrolled into it ${after.offset} px, was ${before.offset}`);
    await shot('r2-item-10-reload-where-you-were.png');
    await f.locator('textarea[aria-label="Prompt"]').fill('');
    r2 = f;
  });

  await step('r2 item 3: a second window says once that the chats are open elsewhere; Take Over moves one; a reload of the first brings its tabs back', async () => {
    const tabTitles = async (p) => (await p.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.replace(/^✦\s*/, '').trim());
    await chatFrame(page, 30_000);
    // Two chats at least, so the reload below has a tab to bring back besides the one taken over.
    if ((await tabTitles(page)).length < 2) {
      const had = await chatFrames();
      await command('ACP: New Chat');
      const fresh = await until(async () => (await chatFrames()).find((f) => !had.includes(f)), 'the new chat', 30_000);
      await sendPrompt(fresh, 'A second chat for the other window');
      await idle(fresh);
      // VS Code keeps a window's layout in storage when it flushes (every minute, and on unload): a second
      // window opened before that restores the tabs of the last flush. A reload saves it now, as a user's
      // earlier session would have.
      const made = await tabTitles(page);
      await reloadWindow(page, command);
      await until(async () => (await tabTitles(page)).length >= made.length, 'the tabs back after the reload that saves the layout', 60_000).catch(async (e) => {
        throw new Error(`${e.message}: before ${JSON.stringify(made)}, after ${JSON.stringify(await tabTitles(page))}`);
      });
      await chatFrame(page, 60_000);
    }
    const before = await tabTitles(page);
    // A page of the same browser context: VS Code in a browser keeps a workspace's layout in the page's
    // storage, so a page of another context is a window that never saw this workspace (it restored no tab,
    // and the step could not see the notice it is about).
    const second = await context.newPage();
    try {
      await second.goto(page.url(), { timeout: 180_000 });
      await second.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
      // The layout was saved by a reload (this step's or the one before), so the second window restores the chat tabs:
      // they stay empty, and it says so once, in words (no process id). Counted, not named: a chat made just
      // before may still carry its number in the chat list this window read (its title is written after).
      await until(async () => (await tabTitles(second)).length >= before.length, 'the second window restored the chat tabs', 60_000).catch(async (e) => {
        throw new Error(`${e.message}: first ${JSON.stringify(before)}, second ${JSON.stringify(await tabTitles(second))}`);
      });
      // Counted in the notification center: a toast in a window without focus may have hidden already.
      await paletteCommand(second, 'Notifications: Show Notifications');
      const notice = second.locator('.notifications-center .monaco-list-row', { hasText: 'open in another VS Code window' });
      await notice.first().waitFor({ timeout: 60_000 });
      await painted(second);
      const notices = await notice.allInnerTexts();
      if (notices.length !== 1) throw new Error(`${notices.length} notices: ${notices.join(' | ')}`);
      if (notices.some((n) => /\d{3,}|process/i.test(n))) throw new Error(`a notice quotes a process: ${notices.join(' | ')}`);
      await second.screenshot({ path: path.join(shots, 'r2-item-03-second-window-says-once.png') });
      await second.keyboard.press('Escape');
      const rows = second.locator('.quick-input-list .monaco-list-row');
      const takeOver = async () => {
        await paletteCommand(second, 'ACP: Chats Open in Another Window…');
        await rows.first().waitFor({ timeout: 30_000 });
        await painted(second);
        await second.screenshot({ path: path.join(shots, 'r2-item-03a-second-window-chats-elsewhere.png') });
        if ((await rows.filter({ hasText: 'Take Over' }).count()) === 0) {
          await rows.first().click();
          await rows.filter({ hasText: 'Take Over' }).first().waitFor({ timeout: 30_000 });
        }
        await rows.filter({ hasText: 'Take Over' }).first().click({ timeout: 20_000 });
      };
      // Once more if the picker closed under the click (in one full run it did, the row found and then gone
      // for 30 s; the step passed alone right after). Said in the log, so a retry that keeps coming shows.
      await takeOver().catch(async (e) => {
        log(`r2 item 3: the picker closed before Take Over (${e.message.split('\n')[0]}); opening it again`);
        await second.keyboard.press('Escape');
        await takeOver();
      });
      await chatFrame(second, 60_000);
      await until(async () => (await tabTitles(page)).length < before.length, 'the first window let go of the chat (its tab closed)', 60_000);
      await painted(second);
      await second.screenshot({ path: path.join(shots, 'r2-item-03b-taken-over.png') });
      await shot('r2-item-03c-first-window-let-go.png');
      const kept = await tabTitles(page);
      await page.reload();
      await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
      if (kept.length === 0) throw new Error('the first window kept no tab to bring back');
      await until(
        async () => {
          const now = await tabTitles(page);
          return kept.every((t) => now.includes(t));
        },
        "the first window's tabs back after its reload",
        120_000,
      );
      // Back as chats, not as the empty tab of a chat another window has: this window still holds them.
      for (const t of kept) {
        await page.locator('.tabs-container .tab', { hasText: t }).first().click();
        await until(
          async () => {
            for (const f of await chatFrames())
              if (
                await f
                  .locator('textarea[aria-label="Prompt"]')
                  .isVisible()
                  .catch(() => false)
              )
                return true;
            return false;
          },
          `"${t}" shows its chat`,
          60_000,
        );
      }
      await shot('r2-item-03d-first-window-reloaded.png');
    } catch (e) {
      await second.screenshot({ path: path.join(shots, 'failure-r2-item-03-second-window.png') }).catch(() => {});
      throw e;
    } finally {
      await second.close().catch(() => {});
    }
  });
} catch (e) {
  log(`stopped: ${e instanceof Error ? e.message : e}`);
  if (steps.failed === 0) steps.failed++;
} finally {
  await browser.close().catch(() => {});
  await cs.stop();
}
console.log(`${steps.passed} passed, ${steps.failed} failed`);
process.exit(steps.failed === 0 && steps.passed > 0 ? 0 : 1);
