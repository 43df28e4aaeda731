// The compaction turn of the real-panel stage (panel-client.mjs, for the names whose recipe has `compact`):
// a question, then the header's Compact button (the agent's own `/compact`, which the panel offers because
// the agent lists it), then a follow-up. The panel advertises `session.compaction`, so the agent reports the
// compaction as `compaction_update`s: the transcript shows one compaction row, completed, whose folded
// summary (Claude's) survives the second `completed`; the header's context meter is shown; the capture
// reduces to the same row; a window reload brings it back with the same key.
import { chatFrame, runCommand } from '../e2e/host.mjs';
import { reduceCapture, findCaptures, squash } from './panel-expect.mjs';
import { panelStatus, reloadAndFind } from './panel-dom.mjs';
import { until } from '../helpers/until.mjs';

const FIRST = 'Tell me about notes.txt in two sentences.';
const FOLLOW_UP = 'What did we talk about before?';

/** Runs the compaction turns and their checks; `summary`: the agent sends one (Claude does, Codex does not). */
export async function compactTurn({ page, cs, cli, summary, check, screenshot, runTurn }) {
  let frame;
  const rows = () => frame.locator('[data-kind="compaction"]');
  const ok = await check("compaction: a question, then Compact in the header (sends the agent's /compact): one row, completed, the chat idle with no error banner", async () => {
    await runCommand(page, 'ACP: Open Chat');
    frame = await chatFrame(page, 60_000);
    await runTurn(page, frame, FIRST);
    const compact = frame.getByRole('button', { name: /^Compact the conversation \(sends \/compact\)/ });
    await until(
      async () => (await compact.count()) === 1,
      () => 'no Compact button in the header (the agent lists /compact)',
      30_000,
    );
    await compact.click();
    let s = await panelStatus(frame);
    let n = 0;
    const compacted = async () => {
      s = await panelStatus(frame);
      n = await rows().count();
      return Boolean(s.banner) || (n === 1 && /conversation compacted/.test(await rows().first().innerText()) && /turn-idle/.test(s.turn));
    };
    await until(compacted, () => `no completed compaction row with the chat idle (${s.turnText}, ${n} rows)`, 180_000);
    if (s.banner) throw new Error(`error banner: ${s.banner}`);
    return squash(await rows().first().innerText()).slice(0, 80);
  });
  if (!ok) return;

  await check(
    `the row ${summary ? "keeps the agent's summary (folded, opened by the user)" : 'has no summary (none was sent)'}; the header's context meter says how full the context is`,
    async () => {
      const row = rows().first();
      await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const details = row.locator('details.compaction-summary');
      const bad = [];
      if (summary) {
        await details.locator('summary').click();
        const text = squash(await details.innerText());
        if (!/PrimaryRequest/.test(text)) bad.push(`the summary is not shown: "${text.slice(0, 120)}"`);
      } else if (await details.isVisible()) bad.push('a summary is shown although none was sent');
      const meter = frame.getByRole('meter', { name: 'Context used' });
      const said = (await meter.count()) ? await meter.getAttribute('aria-valuetext') : null;
      if (!said || !/of the context used|tokens in context/.test(said)) bad.push(`no context meter (${said})`);
      await screenshot(page, 'compaction');
      if (bad.length) throw new Error(bad.join('; '));
      return said;
    },
  );

  await check('a follow-up turn after the compaction ends with no error banner', async () => {
    await runTurn(page, frame, FOLLOW_UP);
    return 'idle';
  });

  await check('the capture reduces to one completed compaction row (with its summary where sent), no error diagnostics', async () => {
    const capture = findCaptures(cs.dirs.user)[0];
    if (!capture) throw new Error(`no capture file under ${cs.dirs.user}`);
    const reduced = reduceCapture(cli, capture);
    const errors = (reduced.diagnostics ?? []).filter((d) => d.severity === 'error');
    if (errors.length) throw new Error(`${errors.length} error diagnostics, first: ${errors[0].message}`);
    const got = reduced.sessions.flatMap((x) => x.entries).filter((e) => e.kind === 'compaction');
    if (got.length !== 1 || got[0].status !== 'completed') throw new Error(`compaction entries: ${JSON.stringify(got).slice(0, 300)}`);
    if (summary && got[0].summary.length === 0) throw new Error('the reduced row lost its summary');
    return got[0].compactionId;
  });

  await check('after a window reload the row is back, with the same key', async () => {
    const key = await rows().first().getAttribute('data-key');
    let keys;
    ({ frame, keys } = await reloadAndFind(page, '[data-kind="compaction"]', 'compaction row'));
    if (keys.length !== 1 || keys[0] !== key) throw new Error(`row key ${keys[0]} (${keys.length} rows), was ${key}`);
    return `key ${key?.slice(0, 8)}`;
  });
}
