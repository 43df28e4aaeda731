// The subagent turns of the real-panel stage (panel-client.mjs, for the names whose recipe has `subagent`):
// Claude Code delegates to a subagent (its Agent tool). The panel advertises `clientCapabilities.subagents`,
// so the child is a session of its own (`subagent_update`, `session_message`): the parent's transcript shows
// one delegation card for it, with its result, and none of the child's work flat beside it; a permission the
// child asks reaches the panel and is answered there; the capture reduces to the same tree; a window reload
// brings the card back. The background form (`subagent: 'background'`): the agent answers, the prompt's
// turn ends, and the agent's own turn after it (the subagent's report) is shown and ends.
import { chatFrame, runCommand } from '../e2e/host.mjs';
import { lastText } from './agents-cache.mjs';
import { findCaptures, plainMarkdown, reduceCapture, squash } from './panel-expect.mjs';
import { panelStatus, reloadAndFind, renderedEntries } from './panel-dom.mjs';
import { until } from '../helpers/until.mjs';

const PROMPT = 'Use a subagent to read notes.txt and tell me what it reports.';
const TITLE = 'Read notes.txt';

/** Runs the subagent turn and its checks; `form` is 'foreground' or 'background'. */
export async function subagentTurn({ page, cs, cli, mock, form, check, screenshot, runTurn }) {
  let frame;
  const cards = () => frame.locator('[data-kind="subagent"]');
  // The answer quotes the report in a blockquote, whose marker the panel draws as a bar, not as text. In the
  // background form it comes in the agent's own turn (the mock's task-notification route): its words before the quote.
  const quote = (t) => plainMarkdown(t.replace(/^>\s?/gm, ''));
  const own = mock.routes?.find((r) => r.name === 'task-notification')?.steps?.at(-1)?.text ?? '';
  const final = form === 'background' ? quote(own.split('${TOOL_RESULT}')[0]) : quote(lastText(mock).replace('${TOOL_RESULT}', 'Report: notes.txt has one line, “hello”. ✅'));
  if (!final) throw new Error(`no final answer in the mock script of the ${form} subagent turn`);
  const turnOk = await check(`subagent turn (${form}): prompt sent, the child's permission answered in the panel, the turn ends with no error banner`, async () => {
    await runCommand(page, 'ACP: Open Chat');
    frame = await chatFrame(page, 60_000);
    const answers = await runTurn(page, frame, PROMPT);
    await screenshot(page, 'turn');
    // The child's shell command (test/agents/scripts/claude-subagent.json) asks; the parent's Agent call does not.
    if (form === 'foreground' && answers.length === 0) throw new Error('no permission request from the subagent reached the panel');
    return `permissions answered: ${answers.join(', ') || 'none asked'}`;
  });
  if (!turnOk) return;

  await check("the agent's final answer is shown (after the prompt's turn, for a background subagent), and the chat goes idle", async () => {
    let said = '';
    let s = await panelStatus(frame);
    const answered = async () => {
      s = await panelStatus(frame);
      said = squash(
        (await renderedEntries(frame))
          .filter((e) => e.kind === 'agent_message')
          .map((e) => e.text)
          .join(''),
      );
      return Boolean(s.banner) || (said.includes(final) && /turn-idle/.test(s.turn));
    };
    await until(answered, () => `no final answer "${final.slice(0, 60)}" with the chat idle (${s.turnText}): "${said.slice(-160)}"`, 120_000);
    if (s.banner) throw new Error(`error banner: ${s.banner}`);
    if (/late|unknown session/i.test(s.notices)) throw new Error(`the agent's own turn was reported: ${s.notices}`);
    await screenshot(page, 'final');
    return final.slice(0, 60);
  });

  await check("one delegation card, titled by the agent, finished, with its result; the child's tool calls are not flat in the parent", async () => {
    await until(
      async () => (await cards().count()) === 1 && /done|finished|idle/i.test(await cards().first().innerText()),
      () => 'no finished subagent card',
      30_000,
    );
    const card = cards().first();
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'card');
    const text = squash(await card.innerText());
    const bad = [];
    if (!text.includes(squash(TITLE))) bad.push(`title missing: "${text.slice(0, 120)}"`);
    // The foreground reply is the report; a background one is the "launched" notice, never shown as the result:
    // the card's result is then the child's own last message (PanelState.subagentResults).
    if (!text.includes(squash('Report: notes.txt has one line'))) bad.push('the card does not show the report');
    if (/Async agent launched/i.test(text)) bad.push('the card shows the "launched" notice as its result');
    const flat = await frame
      .locator('[data-kind="tool_call"]')
      .evaluateAll((els) => els.filter((el) => !el.closest('[data-kind="subagent"]')).map((el) => el.querySelector('.tool-title')?.textContent ?? ''));
    if (flat.some((t) => t.includes(TITLE))) bad.push(`the child's tool call is shown flat in the parent: ${flat.join(' | ')}`);
    // A message drawn in its card keeps a zero-height element of its own (the panel's placement): count drawn rows.
    const rows = await frame.locator('[data-kind="session_message"]').evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().height > 0).length);
    if (rows > 0) bad.push(`${rows} session messages shown as rows of their own besides the card`);
    if (bad.length) throw new Error(bad.join('; '));
    return `"${text.slice(0, 80)}"`;
  });

  await check('the capture reduces to the same tree: the child a session of its own under the parent, no error diagnostics', async () => {
    const capture = findCaptures(cs.dirs.user)[0];
    if (!capture) throw new Error(`no capture file under ${cs.dirs.user}`);
    const reduced = reduceCapture(cli, capture);
    const errors = (reduced.diagnostics ?? []).filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`${errors.length} error diagnostics, first: ${errors[0].message}`);
    const children = reduced.sessions.filter((s) => s.parentSessionId);
    if (children.length !== 1) throw new Error(`${children.length} child sessions in the capture`);
    const parent = reduced.sessions.find((s) => s.sessionId === children[0].parentSessionId);
    const card = parent?.entries.filter((e) => e.kind === 'subagent') ?? [];
    if (card.length !== 1 || card[0].childSessionId !== children[0].sessionId) throw new Error(`the parent's subagent entries: ${JSON.stringify(card)}`);
    if (!children[0].entries.some((e) => e.kind === 'tool_call')) throw new Error("the child's tool calls are not in its session");
    return `child ${children[0].sessionId}: ${children[0].entries.length} entries`;
  });

  await check('after a window reload the card is back, with the same key', async () => {
    const key = await cards().first().getAttribute('data-key');
    let keys;
    ({ frame, keys } = await reloadAndFind(page, '[data-kind="subagent"]', 'subagent card'));
    if (keys.length !== 1 || keys[0] !== key) throw new Error(`card key ${keys[0]} (${keys.length} cards), was ${key}`);
    return `key ${key?.slice(0, 8)}`;
  });
}
