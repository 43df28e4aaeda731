#!/usr/bin/env node
// The ACP_CLIENT of the real-panel stage (run-real-panel.mjs). A `run-<name>.sh` recipe runs it INSIDE its
// private network namespace with the agent's command line as arguments, the agent's environment exported
// and $ACP_CWD naming the scratch workspace. So code-server, headless Chromium, the agent (started by the
// extension from `acpChat.agents`) and the mock LLM on 127.0.0.1 all share the namespace's loopback.
//
// One code-server per agent: open the chat panel, send the scripted prompt, answer every permission
// request as a user would (alternately by click and by number key), then check the rendering against the
// extension's own capture and the mock's script, the edit on disk (undoable when written through the
// editor), the ACP Messages tree, the Changes summary's Undo (the text before the turn back on disk), a window
// reload (same entries, same keys) and a second turn. A question turn (a name whose recipe has `ask`)
// runs panel-ask.mjs instead: the agent's question card answered by click or keyboard.
// Writes its checks as JSON to $REAL_PANEL_RESULT; screenshots go to test-results/real-panel-<name>-*.png.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chatFrame, launchBrowser, log, root, runCommand, startCodeServer, workbenchUrl } from '../e2e/host.mjs';
import { mockScript, lastText, recipeOf } from './agents-cache.mjs';
import { askTurn } from './panel-ask.mjs';
import { subagentTurn } from './panel-subagent.mjs';
import { compactTurn } from './panel-compact.mjs';
import { agentMessages, entryText, extensionLog, findCaptures, occurrences, plainMarkdown, reduceCapture, squash, stepTexts, toolHasOutput } from './panel-expect.mjs';
import { answerPermission, answerQuestion, panelStatus, reloadBySaving, renderedEntries } from './panel-dom.mjs';
import { until } from '../helpers/until.mjs';
import { remoteChecks, runsRemote, startAgentBridge } from './panel-remote.mjs';

const [command, ...args] = process.argv.slice(2);
const name = process.env.REAL_PANEL_NAME ?? 'agent';
const resultFile = process.env.REAL_PANEL_RESULT;
const ws = process.env.ACP_CWD;
const PROMPT = 'Read notes.txt, then update it, then run a shell command to show the result. Explain what you did.';
const SECOND_PROMPT = 'Thanks! Anything else to add?';
const TURN_MS = Number(process.env.REAL_PANEL_TURN_MS ?? 240_000);
const cli = path.join(root, 'dist/cli.js');
const vsix = path.join(root, 'dist/acp-chat.vsix');
const useVsix = existsSync(vsix);
// A .vsix left from an earlier build (a failed `npm run package`) would test old code and pass or fail for it.
if (useVsix && statSync(vsix).mtimeMs < statSync(path.join(root, 'dist/extension.js')).mtimeMs) {
  console.error('panel-client: dist/acp-chat.vsix is older than dist/extension.js: run node scripts/package.mjs');
  process.exit(2);
}
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });
const shot = (step) => path.join(results, `real-panel-${name}-${step}.png`);

if (!command || !ws || !resultFile) {
  console.error('panel-client: run by run-real-panel.mjs through a recipe (needs the agent command, ACP_CWD, REAL_PANEL_RESULT)');
  process.exit(2);
}
// Some recipes drive their agent twice (claude: with and without a client _meta capability the driver
// advertises). With ACP_CLIENT those driver options are dropped, so a second run would test the same thing.
if (existsSync(resultFile)) {
  log(`${name}: another variant of the same recipe; the panel already ran this agent, skipped`);
  process.exit(0);
}

const result = { name, checks: [], notes: [], shots: [] };
const save = () => writeFileSync(resultFile, JSON.stringify(result, null, 1));
save();
async function check(title, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    result.checks.push({ name: title, ok: true, detail: detail ?? '' });
    log(`ok   ${title} (${Date.now() - t0} ms)${detail ? `: ${detail}` : ''}`);
    return true;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    result.checks.push({ name: title, ok: false, detail });
    log(`FAIL ${title}: ${detail}`);
    return false;
  } finally {
    save();
  }
}
const note = (text) => {
  result.notes.push(text);
  log(`note: ${text}`);
};
async function screenshot(page, step) {
  await page.screenshot({ path: shot(step) }).then(
    () => result.shots.push(path.relative(root, shot(step))),
    () => {},
  );
}

// The agent's own environment: code-server replaces HOME, TMPDIR, XDG_CONFIG_HOME, XDG_DATA_HOME and PATH
// for itself, and the extension host passes that on; a user would put what the agent needs in `env`.
const agentEnv = Object.fromEntries(['HOME', 'PATH', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
const bridge = runsRemote(name) ? await startAgentBridge({ command, args, cwd: ws, log }) : undefined;
const settings = {
  'acpChat.agents': [bridge ? { id: name, name: `${name} (real, by URL)`, url: bridge.url } : { id: name, name: `${name} (real)`, command, args, env: agentEnv }],
  'acpChat.defaultAgent': name,
  // The edit check looks at the edited file's editor beside the chat: edited files open only when asked.
  'acpChat.openEditedFiles': true,
};
const mock = mockScript(name);
// Without the script the checks of what the agent said would pass on nothing.
if (!mock) {
  console.error(`panel-client: no mock script for ${name} in the agents cache (ACP_AGENTS_CACHE)`);
  process.exit(2);
}

/**
 * A tool title as the card shows it: an agent's Markdown title (`Edit \`notes.txt\``) is drawn with its
 * code spans as code (no backticks in the text), and paths under the workspace are shown relative to it.
 */
function shownTitle(title) {
  const relative = ws ? title.split(`${ws.replace(/\/+$/, '')}/`).join('') : title;
  return squash(relative.replace(/`/g, ''));
}

/** Differences between the reduced capture's entries and the panel's, plus the mock's texts shown other than once. */
function compareWithCapture(want, got) {
  const kinds = (list) => list.map((e) => e.kind).join(' ');
  if (kinds(want) !== kinds(got)) return [`entries differ from the capture:\n  capture ${kinds(want)}\n  panel   ${kinds(got)}`];
  const bad = [];
  want.forEach((e, i) => {
    const g = got[i];
    if (g.placeholder) bad.push(`#${i + 1} ${e.kind} was never drawn`);
    else if (e.kind === 'user_message') {
      if (squash(g.text) !== squash(entryText(e))) bad.push(`#${i + 1} user message "${g.text.slice(0, 60)}"`);
    } else if (e.kind !== 'tool_call') {
      if (squash(g.text) !== plainMarkdown(entryText(e))) bad.push(`#${i + 1} ${e.kind}: panel "${g.text.slice(0, 80)}" vs capture "${entryText(e).slice(0, 80)}"`);
    } else if (squash(g.title) !== shownTitle(e.title || '')) bad.push(`#${i + 1} tool title "${g.title}" vs "${e.title}"`);
    else if ((e.content ?? []).some((c) => c.type === 'diff') && !g.diff) bad.push(`#${i + 1} "${e.title}" has a diff but none is shown`);
  });
  const said = squash(
    got
      .filter((e) => e.kind === 'agent_message')
      .map((e) => e.text)
      .join(''),
  );
  for (const t of stepTexts(mock)) {
    const n = occurrences(said, plainMarkdown(t));
    if (n !== 1) bad.push(`the mock's "${t.slice(0, 40)}" is shown ${n} times`);
  }
  // The final answer is a numbered list with bold words and inline code: it must be rendered as such.
  const final = lastText(mock);
  const answer = final && got.find((e) => e.kind === 'agent_message' && squash(e.text).includes(plainMarkdown(final)));
  for (const tag of ['ol', 'strong', 'code']) {
    if (answer && final.includes(tag === 'ol' ? '1. ' : tag === 'strong' ? '**' : '`') && !answer.markup.includes(tag)) bad.push(`the answer's Markdown has no <${tag}>`);
  }
  return bad;
}

/** The reduced capture's session of the turn (the one with the most entries). */
const pickSession = (state) => state.sessions.reduce((a, s) => (s.entries.length > (a?.entries.length ?? -1) ? s : a), undefined);

/** Tool cards against the captured tool calls: read, edit and execute present; status, diff and output shown. */
function toolProblems(want, got) {
  const tools = want.map((e, i) => ({ e, g: got[i] })).filter((t) => t.e.kind === 'tool_call' && t.g);
  const bad = [];
  for (const k of ['read', 'edit', 'execute']) if (!tools.some((t) => t.e.toolKind === k)) bad.push(`no ${k} tool call in the capture`);
  for (const { e, g } of tools) {
    if (g.status !== (e.status || 'pending')) bad.push(`"${e.title}" shows ${g.status}, captured ${e.status}`);
    if ((e.content ?? []).some((c) => c.type === 'diff') && !g.diff) bad.push(`"${e.title}" has a diff but none is shown`);
    if (!toolHasOutput(e, 'shell-ok')) continue;
    // The command prints notes.txt, then shell-ok: the card must show that output (not only behind "Raw
    // input / output"), and its lines must stay lines.
    const where = JSON.stringify(e.content ?? []).includes('shell-ok') ? '' : ' (the agent sent it only in rawOutput)';
    if (!g.output.includes('shell-ok')) bad.push(`"${e.title}" has output ("shell-ok") the card does not show${where}`);
    else if (!/\n\s*shell-ok/.test(g.output)) bad.push(`"${e.title}" shows its output without line breaks: ${JSON.stringify(g.output.slice(0, 80))}`);
  }
  return bad;
}

/**
 * Sends a prompt and answers permissions (and questions, as `question` says: {how, choice, shown}) until
 * the turn ends; returns how each request was answered.
 */
async function runTurn(page, frame, prompt, question) {
  const box = frame.locator('textarea[aria-label="Prompt"]');
  await box.fill(prompt);
  // While the agent is still starting the prompt waits in the queue, as it would for a quick user.
  await box.press('Enter');
  const answers = [];
  let sawBusy = false;
  const end = Date.now() + TURN_MS;
  for (;;) {
    const s = await panelStatus(frame);
    if (s.banner) throw new Error(`error banner: ${s.banner}`);
    if (s.permission) {
      answers.push(await answerPermission(page, frame, answers.length % 2 === 0 ? 'click' : 'key'));
      continue;
    }
    if (s.question) {
      if (!question) throw new Error('the agent asked a question this turn does not expect');
      answers.push(await answerQuestion(page, frame, question));
      continue;
    }
    if (/turn-(busy|waiting|cancelling)/.test(s.turn)) sawBusy = true;
    else if (sawBusy && /turn-idle/.test(s.turn)) break;
    else if (/turn-(exited|error)/.test(s.turn)) throw new Error(`the agent stopped: ${s.turnText}`);
    if (Date.now() > end) throw new Error(`the turn did not end within ${TURN_MS / 1000} s (${s.turnText})`);
    await page.waitForTimeout(200); // not a wait for one fact (until.mjs): this drives the turn, each pass answers what the panel asks
  }
  if (!(await frame.locator('[data-kind="user_message"]', { hasText: prompt }).count())) throw new Error('the prompt is not in the transcript');
  return answers;
}

const cs = await startCodeServer({ vsix: useVsix ? vsix : undefined, settings });
let browser;
try {
  browser = await launchBrowser(cs);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(60_000);
  page.on('pageerror', (e) => log('page error:', e.message));
  await page.goto(workbenchUrl(cs, { dev: !useVsix, folder: ws }));
  await page.locator('.monaco-workbench').waitFor();
  let frame;
  let turn1 = [];
  let reduced;
  let capture;

  const { ask, subagent, compact } = recipeOf(name);
  if (ask) await askTurn({ page, cs, cli, mock, how: ask, check, screenshot, runTurn });
  if (subagent) await subagentTurn({ page, cs, cli, mock, form: subagent, check, screenshot, runTurn });
  if (compact) await compactTurn({ page, cs, cli, summary: compact.summary, check, screenshot, runTurn });
  // Everything below checks the read/edit/shell turn, and runs only when it ran.
  const turnOk =
    !ask &&
    !subagent &&
    !compact &&
    (await check('turn: prompt sent, permissions answered by click and key, turn ends with no error banner', async () => {
      await runCommand(page, 'ACP: Open Chat');
      frame = await chatFrame(page, 60_000);
      const answers = await runTurn(page, frame, PROMPT);
      turn1 = await renderedEntries(frame);
      const edit = frame.locator('[data-kind="tool_call"] .tool-diff').first();
      if (await edit.count()) await edit.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'turn');
      return `${turn1.length} entries; permissions answered: ${answers.join(', ') || 'none asked'}`;
    }));

  if (turnOk) {
    await check('no error diagnostics in the capture of the turn', async () => {
      capture = findCaptures(cs.dirs.user)[0];
      if (!capture) throw new Error(`no capture file under ${cs.dirs.user}`);
      reduced = reduceCapture(cli, capture);
      const errors = (reduced.diagnostics ?? []).filter((d) => d.severity === 'error');
      if (errors.length) throw new Error(`${errors.length} error diagnostics, first: ${errors[0].message}`);
      return `${(reduced.diagnostics ?? []).length} diagnostics (none is an error)`;
    });
  }

  let session;
  if (reduced) {
    await check('thoughts, messages and tool calls rendered as captured, nothing doubled or lost', async () => {
      // Agents send updates after the prompt's response, and the capture is written as they arrive: compare
      // until the panel and the capture agree, or report the last difference.
      let bad = [];
      const agree = async () => {
        reduced = reduceCapture(cli, capture);
        session = pickSession(reduced);
        turn1 = await renderedEntries(frame);
        bad = compareWithCapture(session?.entries ?? [], turn1);
        return bad.length === 0;
      };
      await until(agree, () => bad.join('; '), 15_000);
      if (!session.entries.some((e) => e.kind === 'agent_thought')) note('the agent sent no thoughts');
      return turn1.map((e) => e.kind).join(' ');
    });
  }
  if (session) {
    await check('every tool call: read, edit with its diff, shell with its output', async () => {
      // Tool updates may arrive after the prompt's response too: re-read both sides until they agree.
      let bad = toolProblems(session.entries, turn1);
      const agree = async () => {
        session = pickSession(reduceCapture(cli, capture));
        turn1 = await renderedEntries(frame);
        bad = toolProblems(session.entries, turn1);
        return bad.length === 0;
      };
      // What still differs after the wait is reported below, tool by tool.
      if (bad.length) await until(agree, 'the tool calls to agree', 10_000).catch(() => undefined);
      const tools = session.entries.filter((e) => e.kind === 'tool_call');
      if (!tools.some((e) => (e.content ?? []).some((c) => c.type === 'diff'))) note('the agent sent no diff for its edit');
      if (!tools.some((e) => toolHasOutput(e, 'shell-ok'))) note('the agent sent no shell output');
      if (bad.length) throw new Error(bad.join('; '));
      return session.entries
        .map((e, i) => (e.kind === 'tool_call' ? `${e.toolKind}${turn1[i].diff ? '+diff' : ''}${turn1[i].output.includes('shell-ok') ? '+output' : ''}` : null))
        .filter(Boolean)
        .join(' ');
    });
  }

  if (turnOk) {
    await check('the edit is on disk (through an undoable workspace edit when the agent wrote through the editor)', async () => {
      const text = readFileSync(path.join(ws, 'notes.txt'), 'utf8');
      if (text === 'hello\n') throw new Error('notes.txt is unchanged');
      if (JSON.stringify(mock ?? {}).includes('mkdir -p out') && !existsSync(path.join(ws, 'out/notes.txt'))) throw new Error('the shell command did not run (no out/notes.txt)');
      const viaEditor = capture && agentMessages(capture).some((m) => m.method === 'fs/write_text_file');
      if (!viaEditor) {
        note('the agent wrote notes.txt itself (no fs/write_text_file), so there is no workspace edit to undo');
        return 'on disk';
      }
      if (/already has this content/.test(extensionLog(cs.dirs.user))) {
        note('the agent wrote notes.txt itself before its fs/write_text_file arrived, so that write changed nothing (nothing to undo)');
        return 'on disk';
      }
      const added = text.split('\n').find((l) => l && !text.startsWith(`${l}\n`)) ?? text.trim();
      await page.locator('.tabs-container .tab', { hasText: 'notes.txt' }).first().click();
      const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
      await lines.click();
      const shown = () => lines.innerText().then((t) => t.replace(/\u00a0/g, ' '));
      const showsAdded = (want, what) =>
        until(async () => (await shown()).includes(added) === want, `the editor after ${what}`, 10_000).catch(async () => {
          throw new Error(`after ${what} the editor shows: ${JSON.stringify(await shown())}`);
        });
      await page.keyboard.press('Control+z');
      await showsAdded(false, 'Undo');
      await page.keyboard.press('Control+Shift+z');
      await showsAdded(true, 'Redo');
      if (readFileSync(path.join(ws, 'notes.txt'), 'utf8') !== text) throw new Error('undo/redo in the editor changed the file on disk');
      return `on disk; Undo in the editor removed "${added}", Redo restored it`;
    });

    await check('the ACP Messages tree lists every entry', async () => {
      // The activity bar's icon toggles: a click on it while ACP Chat is already in the side bar closes it.
      const messagesPane = page.locator('.sidebar .pane-header', { hasText: 'ACP Messages' });
      if (!(await messagesPane.isVisible())) await page.locator('.activitybar .action-label[aria-label^="ACP Chat"]').first().click();
      const tree = page.locator('.sidebar .monaco-list').first();
      const treeRows = () => tree.locator('.monaco-list-row').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      try {
        await tree
          .locator('.monaco-list-row', { hasText: `${turn1.length}. ` })
          .first()
          .waitFor({ timeout: 20_000 });
      } catch (e) {
        await screenshot(page, 'tree-missing');
        const shown = await treeRows().catch(() => []);
        throw new Error(
          `no row "${turn1.length}. " in the tree (side bar shows ACP Messages: ${await messagesPane.isVisible()}; rows: ${shown.join(' | ') || 'none'}): ${e instanceof Error ? e.message.split('\n')[0] : e}`,
        );
      }
      const rows = await treeRows();
      const entries = rows.filter((r) => /^\d+\. (User|Agent|Thought|Tool call)/.test(r));
      await screenshot(page, 'tree');
      if (entries.length !== turn1.length) throw new Error(`the tree lists ${entries.length} entries, the panel ${turn1.length}:\n  ${entries.join('\n  ')}`);
      const replayed = entries.filter((r) => /replay/.test(r));
      if (replayed.length) throw new Error(`entries marked replay before any reload: ${replayed.join('; ')}`);
      return `${entries.length} entries`;
    });

    // Real agents report their edits in their own shapes (whole-file or fragment diffs, written by
    // themselves or through fs/write_text_file): the summary must still know the text before the turn.
    await check('the Changes summary lists notes.txt, and Undo by click puts back the text before the turn', async () => {
      const file = path.join(ws, 'notes.txt');
      const row = frame.locator('section.changes').last().locator('.change-row', { hasText: 'notes.txt' }).first();
      await row.waitFor({ timeout: 20_000 });
      await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'changes');
      await row.getByRole('button', { name: /^Undo .*notes\.txt$/ }).click();
      await row.locator('.change-state', { hasText: 'Undone' }).waitFor({ timeout: 15_000 });
      await until(
        () => readFileSync(file, 'utf8') === 'hello\n',
        () => `after Undo notes.txt holds ${JSON.stringify(readFileSync(file, 'utf8'))}, not the text before the turn`,
        10_000,
      );
      return 'Undone; notes.txt holds "hello" again';
    });

    const reloadOk = await check('a window reload restores the same entries with the same keys', async () => {
      const before = await renderedEntries(frame);
      await reloadBySaving(page);
      frame = await chatFrame(page, 60_000);
      let s = await panelStatus(frame);
      // An error banner ends the wait at once (and fails below); otherwise the panel settles.
      const settled = async () => {
        s = await panelStatus(frame);
        return Boolean(s.banner) || (/turn-idle/.test(s.turn) && s.entries >= before.length);
      };
      await until(settled, () => `the panel did not settle after the reload (${s.turnText}, ${s.entries} entries, ${s.notices})`, 120_000);
      if (s.banner) throw new Error(`error banner after the reload: ${s.banner}`);
      if (s.notices) note(`after the reload the panel says: ${s.notices}`);
      const after = await renderedEntries(frame);
      // Back to the top (the first entries may have left the document while the last ones were read).
      await frame.evaluate(() => {
        const t = globalThis.__acpChat?.transcript;
        const first = t?.views[0];
        if (first) t.reveal(first.key, false);
        document.querySelector('[data-key]')?.scrollIntoView({ block: 'start' });
      });
      await screenshot(page, 'restored');
      const sig = (list) => list.map((e) => `${e.kind}:${e.key.slice(0, 8)}`);
      const bad = [];
      if (sig(after).join(' ') !== sig(before).join(' ')) bad.push(`entries differ:\n  before ${sig(before).join(' ')}\n  after  ${sig(after).join(' ')}`);
      before.forEach((e, i) => {
        const a = after.find((x) => x.key === e.key);
        if (!a) return;
        if (squash(a.text) !== squash(e.text)) bad.push(`#${i + 1} ${e.kind} changed: "${a.text.slice(0, 60)}" was "${e.text.slice(0, 60)}"`);
        if (e.kind === 'tool_call' && e.diff && !a.diff) bad.push(`#${i + 1} "${e.title}" lost its diff`);
        if (e.kind === 'tool_call' && a.title !== e.title) bad.push(`#${i + 1} title "${a.title}" was "${e.title}"`);
      });
      if (bad.length) throw new Error(bad.join('; '));
      return `${after.length} entries, same keys and text`;
    });

    await check('a second turn continues the conversation', async () => {
      if (!reloadOk) {
        // Continue from whatever the panel shows, so a reload failure does not hide the second turn's.
        await chatFrame(page, 60_000).then((f) => (frame = f));
      }
      const before = await renderedEntries(frame);
      const answers = await runTurn(page, frame, SECOND_PROMPT);
      const after = await renderedEntries(frame);
      await screenshot(page, 'second');
      const bad = [];
      if (before.some((e, i) => after[i]?.key !== e.key)) bad.push('the entries before the second prompt changed');
      const added = after.slice(before.length);
      if (added[0]?.kind !== 'user_message') bad.push(`the second turn starts with ${added[0]?.kind ?? 'nothing'}`);
      const final = lastText(mock);
      const said = squash(
        added
          .filter((e) => e.kind === 'agent_message')
          .map((e) => e.text)
          .join(''),
      );
      if (final && !said.includes(plainMarkdown(final))) bad.push(`no answer in the second turn (got "${said.slice(0, 80)}")`);
      if (bad.length) throw new Error(bad.join('; '));
      return `${added.length} new entries; permissions: ${answers.join(', ') || 'none asked'}`;
    });
  }
  if (bridge && turnOk) await remoteChecks({ bridge, check, chatFrame, page, reloaded: result.checks.some((c) => c.ok && /window reload/.test(c.name)) });
  if (!result.checks.every((c) => c.ok)) await screenshot(page, 'failure');
} catch (e) {
  result.checks.push({ name: 'the panel run', ok: false, detail: e instanceof Error ? e.message : String(e) });
  log(`FAIL the panel run: ${e instanceof Error ? e.stack : e}`);
} finally {
  save();
  await browser?.close().catch(() => {});
  await cs.stop();
  await bridge?.stop();
}
process.exit(result.checks.length > 0 && result.checks.every((c) => c.ok) ? 0 : 1);
