// The question turn of the real-panel stage (panel-client.mjs, for the names whose recipe has `ask`):
// Claude's AskUserQuestion reaches the panel as a form elicitation; the user answers the card (by click
// or from the keyboard only), the agent's final answer quotes the choice (the mock puts the tool result
// into its text), the capture shows what the panel sent, and the answered card survives a window reload.
// The question is tied to the AskUserQuestion tool call, so its card is drawn on that tool call's card.
import { chatFrame, runCommand } from '../e2e/host.mjs';
import { lastText } from './agents-cache.mjs';
import { captureMessages, findCaptures, plainMarkdown, reduceCapture, squash } from './panel-expect.mjs';
import { panelStatus, reloadBySaving, renderedEntries } from './panel-dom.mjs';
import { until } from '../helpers/until.mjs';

const PROMPT = 'Ask me which line to add to notes.txt, then tell me what you will do with my answer.';
const CHOICE = 'Add a TODO line';
const FIELD = 'question_0';

/** Runs the question turn and its checks; `how` is 'click' or 'key'. */
export async function askTurn({ page, cs, cli, mock, how, check, screenshot, runTurn }) {
  let frame;
  /** The question's card: on the tool call's card, not an entry of its own. */
  const card = () => frame.locator('[data-kind="tool_call"] .question-slot > .elicitation').last();
  const turnOk = await check(
    `question turn: the card appears, answered by ${how === 'click' ? 'click' : 'keyboard'} ("${CHOICE}"), the turn ends with no error banner`,
    async () => {
      await runCommand(page, 'ACP: Open Chat');
      frame = await chatFrame(page, 60_000);
      let placed = null;
      const shown = async () => {
        placed = await questionPlace(frame);
        await screenshot(page, 'question');
      };
      const answers = await runTurn(page, frame, PROMPT, { how, choice: CHOICE, shown });
      if (!placed?.onTool) throw new Error(`the question's form is not on a tool card: ${JSON.stringify(placed)}`);
      if (placed.toolName !== 'AskUserQuestion') throw new Error(`the question is on the card of tool "${placed.toolName}", not AskUserQuestion`);
      if (placed.rawId) throw new Error(`the panel shows the raw tool call id: "${placed.rawId}"`);
      const asked = answers.filter((a) => a.startsWith(`${how} "`));
      if (asked.length !== 1) throw new Error(`expected one question card, answered: ${answers.join(', ') || 'nothing'}`);
      return `on the AskUserQuestion card ("${placed.title}"); answered: ${answers.join(', ')}`;
    },
  );
  if (!turnOk) return;

  await check('the answered card keeps the question and the choice', async () => {
    const c = card();
    await c.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const text = squash(await c.innerText());
    await screenshot(page, 'answered');
    const bad = [];
    if (!text.includes(squash('Which line should I add to notes.txt?'))) bad.push('no question');
    if (!text.includes(squash('answered'))) bad.push('not marked answered');
    const answer = squash(
      await c
        .getByRole('list', { name: 'Your answer' })
        .innerText()
        .catch(() => ''),
    );
    if (!answer.includes(squash(`New line: ${CHOICE}`))) bad.push(`answer shown as "${answer}"`);
    if (await c.locator('form').count()) bad.push('the form is still there');
    if (bad.length) throw new Error(`${bad.join('; ')}: card text "${text.slice(0, 160)}"`);
    return `"${answer}"`;
  });

  await check("the agent's final answer in the panel quotes the choice", async () => {
    const final = plainMarkdown(lastText(mock).replace('${TOOL_RESULT}', CHOICE));
    // The answer's last chunks may follow the prompt's response: wait for them.
    let said = '';
    const answered = async () =>
      (said = squash(
        (await renderedEntries(frame))
          .filter((e) => e.kind === 'agent_message')
          .map((e) => e.text)
          .join(''),
      )).includes(final);
    await until(answered, () => `the panel's agent messages lack "${final}": "${said.slice(-160)}"`, 15_000);
    await screenshot(page, 'final');
    return final;
  });

  await check('the capture shows accept with the choice sent, and reduces with no error diagnostics', async () => {
    const capture = findCaptures(cs.dirs.user)[0];
    if (!capture) throw new Error(`no capture file under ${cs.dirs.user}`);
    const sent = captureMessages(capture, 'client->agent')
      .map((m) => m.result)
      .filter((r) => r && typeof r === 'object' && 'action' in r);
    if (sent.length !== 1 || sent[0].action !== 'accept' || sent[0].content?.[FIELD] !== CHOICE) throw new Error(`elicitation responses sent: ${JSON.stringify(sent)}`);
    const errors = (reduceCapture(cli, capture).diagnostics ?? []).filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`${errors.length} error diagnostics, first: ${errors[0].message}`);
    return JSON.stringify(sent[0]);
  });

  await check('after a window reload the answered card is still there', async () => {
    await reloadBySaving(page);
    frame = await chatFrame(page, 60_000);
    let s = await panelStatus(frame);
    let shown = '';
    // An error banner ends the wait at once (and fails below); otherwise the answered card comes back.
    const restored = async () => {
      s = await panelStatus(frame);
      shown = /turn-idle/.test(s.turn) && (await card().count()) ? squash(await card().innerText()) : '';
      return Boolean(s.banner) || shown.includes(squash(`New line: ${CHOICE}`));
    };
    await until(restored, () => `no answered card after the reload (${s.turnText}, ${s.entries} entries): "${shown.slice(0, 160)}"`, 120_000);
    if (s.banner) throw new Error(`error banner after the reload: ${s.banner}`);
    return 'answered card restored';
  });
}

/**
 * Where the open question's form is drawn: on a tool call's card (whose tool, by the panel's own entry
 * for it, and its title), and whether the panel's text names a raw tool call id anywhere.
 */
function questionPlace(frame) {
  return frame.evaluate(() => {
    const form = document.querySelector('form.eli-form[data-request-id]');
    const tool = form?.closest('[data-kind="tool_call"]');
    const key = tool instanceof HTMLElement ? tool.dataset['key'] : undefined;
    const entry = key !== undefined ? globalThis.__acpChat?.transcript.view(key)?.entry : undefined;
    const text = document.querySelector('.transcript')?.textContent ?? '';
    return {
      onTool: tool !== null && tool !== undefined && tool.querySelector('.tool-card')?.contains(form) === true,
      toolName: entry?.name ?? null,
      title: tool?.querySelector('.tool-title')?.textContent ?? null,
      rawId: /\btoolu_\w+/.exec(text)?.[0] ?? null,
    };
  });
}
