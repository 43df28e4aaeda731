// The UI tour: a demo-agent turn that exercises every entry type in the real workbench, the ACP Messages
// tree beside the chat panel, a reload that must restore the panel exactly (same entries, same keys), a
// second chat with another agent beside the first (both answering at once), and the side bar chat view.
// Screenshots: test-results/ui-permission.png, ui-tour.png, ui-changes.png, ui-changes-undone.png,
// ui-subagent-permission.png, ui-subagent.png (protocol 1), ui-tree.png, ui-restored.png, ui-two-chats.png, ui-sidebar.png.
// ACP_TOUR_PROTOCOL=2 runs the same tour with `acpChat.protocolVersion: 2` (the demo agent then speaks
// the v2 draft) and names the screenshots *-v2.png.
// Last stdout line: `N passed, N failed` (one check per step).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { until } from '../helpers/until.mjs';
import { DEMO_REPLY, chatFrame, launchBrowser, log, painted, reloadWindow, root, runCommand, startCodeServer, stepRunner, workbenchUrl } from './host.mjs';

const vsixPath = path.join(root, 'dist/acp-chat.vsix');
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const protocol = process.env.ACP_TOUR_PROTOCOL === '2' ? 2 : 1;
const shot = (name) => path.join(results, protocol === 2 ? name.replace(/\.png$/, '-v2.png') : name);
const useVsix = existsSync(vsixPath);

const steps = stepRunner();
const step = steps.step;

/** The chat webview whose header names `agentName` (several chats may be open). */
function chatFrameOf(page, agentName, timeoutMs) {
  return until(
    async () => {
      for (const frame of page.frames()) {
        if (frame.isDetached()) continue;
        const name = await frame
          .locator('.agent-name-text')
          .first()
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (name.trim() === agentName) return frame;
      }
      return undefined;
    },
    `a chat webview of ${agentName}`,
    timeoutMs,
  );
}

/** Picks an item of the open quick pick by its label. */
/**
 * Runs a command that opens a quick pick and picks `label`. A quick pick closes when focus moves, and a
 * chat webview restored by the reload before may still take focus once: then the command is run again
 * (seen once in CI: the picker went inert, then hidden, under the fill).
 */
async function commandPick(page, command, label) {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      // Inside the retry too: the palette itself can be closed by the same focus move.
      await runCommand(page, command);
      await input.fill(label, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().click({ timeout: 5_000 });
      return;
    } catch (e) {
      if (attempt === 5) throw e;
      log(`the "${command}" picker closed before "${label}" was picked (attempt ${attempt}); again`);
      await page.keyboard.press('Escape');
    }
  }
}

// The panel's own list (entries far from the viewport are not in the document, webview/farEntries.ts).
const keysOf = (frame) =>
  frame.evaluate(
    () =>
      globalThis.__acpChat?.transcript.views.map((v) => `${v.entry.kind}:${v.key}`) ??
      [...document.querySelectorAll('[data-key]')].map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-key')}`),
  );

// A second agent for the side-by-side step: the demo agent streaming more slowly, under another name.
const secondAgent = { id: 'demo-b', name: 'Demo B', command: process.execPath, args: [path.join(root, 'dist/demo-agent.js')], env: { ACP_DEMO_DELAY_MS: '20' } };
const cs = await startCodeServer({
  vsix: useVsix ? vsixPath : undefined,
  settings: { 'acpChat.agents': [secondAgent], ...(protocol === 2 ? { 'acpChat.protocolVersion': 2 } : {}) },
});
log(`ui-tour: protocol ${protocol}`);
let browser;
try {
  browser = await launchBrowser(cs);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => log('page error:', e.message));
  let frame;
  try {
    await page.goto(workbenchUrl(cs, { dev: !useVsix }));
    await page.locator('.monaco-workbench').waitFor();

    await step('a turn with every entry type, answering the permission with the keyboard', async () => {
      await runCommand(page, 'ACP: Open Chat');
      frame = await chatFrame(page, 30_000);
      const box = frame.locator('textarea[aria-label="Prompt"]');
      await box.fill('Please edit the notes and run a command.');
      await box.press('Enter');
      const option = frame.locator('[data-kind="tool_call"] [data-option-id]').first();
      await option.waitFor({ timeout: 30_000 });
      await painted(frame);
      await page.screenshot({ path: shot('ui-permission.png') });
      // Keys answer the oldest pending request (1 = the first option), from the conversation or the card.
      await frame.locator('section[aria-label="Conversation"]').focus();
      await page.keyboard.press('1');
      await frame.locator('[data-option-id]').first().waitFor({ state: 'detached', timeout: 15_000 });
      await frame.locator('[data-kind="agent_message"]', { hasText: 'That is all for this turn' }).first().waitFor({ timeout: 60_000 });
      for (const kind of ['user_message', 'agent_thought', 'agent_message', 'tool_call']) {
        const n = await frame.locator(`[data-kind="${kind}"]`).count();
        if (n === 0) throw new Error(`no ${kind} entry rendered`);
      }
      const tools = await frame.locator('[data-kind="tool_call"]').count();
      if (tools < 3) throw new Error(`expected read, edit and execute tool calls, saw ${tools}`);
      await frame.locator('[data-kind="agent_message"]', { hasText: DEMO_REPLY }).first().waitFor();
      // The execute card's terminal view shows the command's output (v1: a client terminal; v2: agent-owned
      // terminal_update / terminal_output_chunk), not "(no output)".
      await frame.locator('.tool-terminal[data-terminal-id] .terminal-output', { hasText: 'Hello from the demo terminal' }).first().waitFor({ timeout: 15_000 });
      await frame
        .locator('[data-kind="tool_call"]')
        .nth(1)
        .evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await painted(frame);
      await page.screenshot({ path: shot('ui-tour.png') });
    });

    await step('the Changes summary after the turn lists the edit; Undo by click puts the file back', async () => {
      const file = path.join(cs.dirs.ws, 'demo-edit.txt');
      const edited = readFileSync(file, 'utf8');
      const block = frame.locator('section.changes').last();
      const row = block.locator('.change-row', { hasText: 'demo-edit.txt' });
      await row.waitFor({ timeout: 15_000 });
      await block.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await painted(frame);
      await page.screenshot({ path: shot('ui-changes.png') });
      await row.getByRole('button', { name: 'Undo demo-edit.txt', exact: true }).click();
      await row.locator('.change-state', { hasText: 'Undone' }).waitFor({ timeout: 15_000 });
      const focused = await frame
        .locator(':focus')
        .getAttribute('aria-label')
        .catch(() => null);
      if (focused !== 'Open diff of demo-edit.txt') throw new Error(`after Undo the focus is on ${focused}, not the row's next control`);
      const now = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (now === edited) throw new Error("Undo left the agent's text in demo-edit.txt");
      await painted(frame);
      await page.screenshot({ path: shot('ui-changes-undone.png') });
    });

    // Protocol 1 only: the v2 draft has no subagents capability to advertise, and the demo agent's v2 side none.
    if (protocol === 1)
      await step("a subagent turn: the card, the subagent's permission answered in the chat, its transcript opened in a tab of its own", async () => {
        const box = frame.locator('textarea[aria-label="Prompt"]');
        await box.fill('Hand the notes to a subagent, please.');
        await box.press('Enter');
        const perm = frame.locator('.permission', { hasText: 'needs you' }).first();
        await perm.waitFor({ timeout: 30_000 });
        const card = frame.locator('[data-kind="subagent"]').last();
        await card.locator('.subagent-state', { hasText: 'running' }).waitFor();
        await painted(frame);
        await page.screenshot({ path: shot('ui-subagent-permission.png') });
        await perm.locator('.perm-allow_once').click();
        await card.locator('.subagent-state', { hasText: 'done' }).waitFor({ timeout: 30_000 });
        await card.locator('.subagent-result', { hasText: 'Report from the subagent' }).waitFor({ timeout: 15_000 });
        // The turn goes on after the subagent: its final answer is the demo's reply (the first turn has one too).
        const replies = frame.locator('[data-kind="agent_message"]', { hasText: DEMO_REPLY });
        await until(
          async () => (await replies.count()) >= 2,
          () => 'the subagent turn has no final answer',
          60_000,
        );
        await card.getByRole('button', { name: "Open the subagent's transcript" }).click();
        const child = await chatFrameOf(page, 'Demo agent · subagent', 30_000);
        await child.locator('[data-kind="tool_call"]').first().waitFor();
        if (!(await child.locator('textarea[aria-label="Prompt"]').isDisabled())) throw new Error("the subagent's view takes prompts");
        await painted(child);
        await page.screenshot({ path: shot('ui-subagent.png') });
        // Back to the chat's own tab for the steps after this one.
        await page.locator('.tab', { hasText: 'Subagent ·' }).first().click({ button: 'middle' });
        await page.locator('.tab', { hasText: 'Subagent ·' }).first().waitFor({ state: 'detached', timeout: 15_000 });
      });

    await step('the ACP Messages tree beside the panel lists the session and its entries', async () => {
      // The view container's activity-bar icon (the tree is the container's only view).
      await page.locator('.activitybar .action-label[aria-label^="ACP Chat"]').first().click();
      const tree = page.locator('.sidebar .monaco-list').first();
      await tree.waitFor({ timeout: 20_000 });
      await tree.locator('.monaco-list-row', { hasText: 'Tool call' }).first().waitFor({ timeout: 20_000 });
      const rows = await tree.locator('.monaco-list-row').count();
      if (rows < 5) throw new Error(`the tree shows only ${rows} rows`);
      await painted(page);
      await page.screenshot({ path: shot('ui-tree.png') });
    });

    await step('a reload restores the panel with the same entries and keys', async () => {
      const before = await keysOf(frame);
      if (before.length < 5) throw new Error(`only ${before.length} entries before the reload`);
      // The workbench's own reload (as a user does it) saves the window state first; a raw page reload
      // races the browser against that save, and the restored window may then have no chat editor.
      await reloadWindow(page, (title) => runCommand(page, title), 60_000);
      frame = await chatFrame(page, 60_000);
      let after = [];
      // Waits for as many entries as before; the comparison below says what differs if they never come.
      const restored = async () => (after = await keysOf(frame).catch(() => [])).length >= before.length;
      await until(restored, 'the restored entries', 30_000).catch(() => undefined);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        throw new Error(`entries differ after the reload:\n  before ${before.join(' ')}\n  after  ${after.join(' ')}`);
      }
      // Same keys is not enough: the restored text must be whole (a lost chunk once read "ACP Chat det.").
      // Entries far from the viewport come back as placeholders built a little later (on a loaded machine,
      // after the keys are there): wait for the text, then say what it was if it never came whole.
      let restoredText = '';
      const whole = async () =>
        (restoredText = await frame
          .locator('[data-kind="agent_message"]')
          .first()
          .innerText()
          .catch(() => '')).includes(DEMO_REPLY);
      await until(whole, 'the restored reply', 30_000).catch(() => undefined);
      if (!restoredText.includes(DEMO_REPLY)) throw new Error(`the restored reply lost text: ${restoredText.slice(0, 120)}`);
      // The turn's Changes summary comes back too, with the file still shown undone.
      await frame.locator('section.changes .change-row', { hasText: 'demo-edit.txt' }).locator('.change-state', { hasText: 'Undone' }).waitFor({ timeout: 15_000 });
      await painted(frame);
      await page.screenshot({ path: shot('ui-restored.png') });
    });

    await step('a second chat with another agent beside the first; both answer at once', async () => {
      // Select Agent switches the focused chat to Demo B's (a new chat, in a new tab); moved to the right group.
      await commandPick(page, 'ACP: Select Agent', 'Demo B');
      const second = await chatFrameOf(page, 'Demo B', 30_000);
      await runCommand(page, 'View: Move Editor into Right Group');
      await page.locator('.editor-group-container').nth(1).waitFor();
      const first = await chatFrameOf(page, 'Demo agent', 30_000);
      const again = await chatFrameOf(page, 'Demo B', 30_000);
      const prompts = [
        [first, 'Chat one: say hello.'],
        [again, 'Chat two: say hello too.'],
      ];
      for (const [f, text] of prompts) {
        const box = f.locator('textarea[aria-label="Prompt"]');
        await box.fill(text);
        await box.press('Enter');
      }
      for (const [f, text] of prompts) {
        await f.locator('[data-kind="user_message"]', { hasText: text }).first().waitFor({ timeout: 30_000 });
        await f.locator('[data-kind="agent_message"]', { hasText: DEMO_REPLY }).last().waitFor({ timeout: 60_000 });
        await f.locator('.turn.turn-idle').waitFor({ timeout: 60_000 });
        const other = prompts.find(([g]) => g !== f)[1];
        if ((await f.locator('[data-kind="user_message"]', { hasText: other }).count()) !== 0) throw new Error(`"${other}" showed up in the wrong chat`);
        await f
          .locator('[data-kind="user_message"]', { hasText: text })
          .first()
          .evaluate((el) => el.scrollIntoView({ block: 'start' }));
      }
      if (second !== again) log('the Demo B webview was re-created by the move (expected: webviews reload when moved)');
      // The tree follows the focused chat (Demo B's, moved last): its turn's tool call is listed.
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Read README' }).first().waitFor({ timeout: 20_000 });
      const treeTitle = await page.locator('.sidebar .pane-header', { hasText: 'ACP Messages' }).first().innerText();
      if (!treeTitle.includes('Chat two')) throw new Error(`the tree does not follow the focused chat: ${treeTitle}`);
      await painted(page);
      await page.screenshot({ path: shot('ui-two-chats.png') });
    });

    await step('the side bar chat view shows the focused chat', async () => {
      await runCommand(page, 'ACP: Show Chat in Side Bar');
      // The tree makes room: it moves to the panel area while the side bar shows a chat.
      await page.locator('.sidebar .pane-header', { hasText: 'ACP Messages' }).first().waitFor({ state: 'detached', timeout: 20_000 });
      // The side bar's webview is a third chat frame, showing Demo B's chat with its turn.
      const demoBFrames = async () => {
        let n = 0;
        for (const f of page.frames()) {
          if (f.isDetached()) continue;
          const name = await f
            .locator('.agent-name-text')
            .first()
            .innerText({ timeout: 500 })
            .catch(() => '');
          if (name.trim() === 'Demo B' && (await f.locator('[data-kind="user_message"]', { hasText: 'Chat two' }).count()) > 0) n++;
        }
        return n >= 2;
      };
      await until(demoBFrames, () => "the side bar view does not show Demo B's chat", 30_000);
      await painted(page);
      await page.screenshot({ path: shot('ui-sidebar.png') });
    });
  } catch {
    await page.screenshot({ path: shot('ui-tour-failure.png') }).catch(() => {});
  }
} finally {
  await browser?.close().catch(() => {});
  await cs.stop();
}
const STEPS = protocol === 1 ? 7 : 6;
const { passed, failed } = steps;
console.log(`${passed} passed, ${failed + (passed + failed < STEPS ? STEPS - passed - failed : 0)} failed`);
process.exit(failed === 0 && passed === STEPS ? 0 : 1);
