// Browser checks of an agent's question (elicitation) in the transcript: the form card renders from the
// schema, validates before it posts, works from the keyboard, passes axe; the answered card keeps the
// record; URL mode shows only the origin and posts accept only on the user's click. Registered by run.mjs.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { message, panel, toolCall, snapshot, patch } from './fixtures.mjs';
import { assertClean, axeRun } from './a11y.mjs';
import { root } from './server.mjs';

/** The question Claude's AskUserQuestion sends (one fixture with the unit tests), with a field of every other kind. */
const ASK = JSON.parse(readFileSync(new URL('../fixtures/elicitation/ask-user-question.json', import.meta.url), 'utf8'));
const SCHEMA = {
  type: 'object',
  required: ['question_0', 'count'],
  properties: {
    question_0: ASK.properties.question_0,
    count: { type: 'integer', title: 'How many', minimum: 1, maximum: 3 },
    note: { type: 'string', title: 'Note', description: 'Anything else', maxLength: 20 },
    sure: { type: 'boolean', title: 'Sure', default: true },
  },
};

/** An elicitation entry as the host sends it (the wire form is the view entry). */
function question(key, over = {}) {
  return {
    kind: 'elicitation',
    key,
    requestId: 0,
    mode: 'form',
    message: 'Which line should I add to notes.txt?',
    toolCallId: 'toolu_1',
    requestedSchema: SCHEMA,
    elicitationId: null,
    url: null,
    status: 'pending',
    answer: null,
    completed: false,
    provenance: 'live',
    ...over,
  };
}
/** From the keyboard only: Space picks the first choice, an arrow the second, Tab moves on to "How many", Enter submits. */
async function answerByKeys(page, scope) {
  await scope.locator('input[type="radio"]').first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
}
const KEYED_ANSWER = { type: 'elicitation', requestId: 'eli-1', action: 'accept', content: { question_0: 'Add a TODO line', count: 1, sure: true } };
const prompt = (entryKey, over = {}) => ({
  requestId: 'eli-1',
  entryKey,
  mode: 'form',
  message: 'Which line should I add to notes.txt?',
  requestedSchema: SCHEMA,
  url: null,
  ...over,
});

export function register(test) {
  test('elicitation: the form card renders from the schema, labelled, and passes axe', async ({ open }) => {
    const { page, send, flush, errors } = await open();
    await send(snapshot([message('user_message', 'u1', 'Ask me'), question('q1')], { ...panel(), elicitations: [prompt('q1')] }));
    await flush();
    const card = page.locator('[data-key="q1"][data-kind="elicitation"]');
    assert.match(await card.innerText(), /Which line should I add to notes\.txt\?/);
    assert.match(await card.getAttribute('aria-label'), /asks, waiting for your answer/);
    assert.equal(await card.getByRole('radio', { name: 'Add a TODO line' }).count(), 1);
    assert.equal(await card.getByRole('radiogroup', { name: /New line/ }).count(), 1);
    assert.equal(await card.getByRole('spinbutton', { name: /How many/ }).count(), 1);
    assert.equal(await card.getByRole('textbox', { name: /Note/ }).count(), 1);
    assert.equal(await card.getByRole('checkbox', { name: /Sure/ }).isChecked(), true, 'the default is applied');
    for (const name of ['Accept', 'Decline', 'Cancel']) assert.equal(await card.getByRole('button', { name }).count(), 1);
    assertClean(await axeRun(page), 'pending question');
    assert.doesNotMatch(await card.innerText(), /toolu_1/, 'its tool call is not in the transcript: the card names no raw id');
    assert.deepEqual(errors, []);
  });

  test('elicitation: answers are validated before anything is posted; a valid answer posts accept with content', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([question('q1')], { ...panel(), elicitations: [prompt('q1')] }));
    await flush();
    await clearPosted();
    const card = page.locator('[data-key="q1"]');
    await card.getByRole('button', { name: 'Accept' }).click();
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [],
      'nothing sent while invalid',
    );
    assert.match(await card.locator('.eli-error:not([hidden])').first().innerText(), /New line is required/);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'radio', 'focus goes to the first invalid field');
    await card.getByRole('radio', { name: 'Add a TODO line' }).check();
    await card.getByRole('spinbutton', { name: /How many/ }).fill('7');
    await card.getByRole('button', { name: 'Accept' }).click();
    assert.match(await card.innerText(), /How many must be at most 3/);
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [],
    );
    await card.getByRole('spinbutton', { name: /How many/ }).fill('2');
    await card.getByRole('button', { name: 'Accept' }).click();
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [{ type: 'elicitation', requestId: 'eli-1', action: 'accept', content: { question_0: 'Add a TODO line', count: 2, sure: true } }],
    );
  });

  test('elicitation: keyboard only — arrows pick, Tab moves, Enter submits, Esc cancels', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    await send(snapshot([question('q1')], { ...panel(), elicitations: [prompt('q1')] }));
    await flush();
    await clearPosted();
    await answerByKeys(page, page.locator('[data-key="q1"]'));
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [KEYED_ANSWER],
    );
    await clearPosted();
    await page.locator('[data-key="q1"] input[type="radio"]').first().focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [{ type: 'elicitation', requestId: 'eli-1', action: 'cancel' }],
    );
  });

  test('elicitation: a new question is said in the status region, once, the header waits for you, the focus stays in the prompt box', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot([message('user_message', 'u1', 'Ask me')], { ...panel(), turn: 'busy' }));
    await flush();
    await page.locator('textarea[aria-label="Prompt"]').focus();
    await send(patch({ op: 'insert', entry: question('q1') }, { op: 'panel', panel: { elicitations: [prompt('q1')] } }));
    await flush();
    const said = () => page.locator('[data-testid="announcer"]').textContent();
    await page.waitForFunction(() =>
      /The agent asks: Which line should I add to notes\.txt\? Answer in the question card\./.test(document.querySelector('[data-testid="announcer"]')?.textContent ?? ''),
    );
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Prompt', 'the question does not take the focus');
    assert.match(await page.locator('.turn').innerText(), /Waiting for you/, 'the header says the agent waits for the user');
    // A panel update that still lists the same question says nothing (saying it again would change the region).
    const first = await said();
    await send(patch({ op: 'panel', panel: { elicitations: [prompt('q1')] } }));
    await flush();
    assert.equal(await said(), first);
    await send(patch({ op: 'panel', panel: { elicitations: [] } }));
    await flush();
    assert.doesNotMatch(await page.locator('.turn').innerText(), /Waiting for you/, 'answered: the agent works again');
  });

  test('elicitation: the answered card keeps what was asked and answered; a question no one waits for says so', async ({ open }) => {
    const { page, send, flush } = await open();
    await send(snapshot([question('q1')], { ...panel(), elicitations: [prompt('q1')] }));
    await flush();
    await send(
      patch(
        { op: 'panel', panel: { elicitations: [] } },
        { op: 'replace', h: 0, entry: question('q1', { status: 'accept', answer: { question_0: 'Add a TODO line', count: 2 } }) },
      ),
    );
    await flush();
    const card = page.locator('[data-key="q1"]');
    assert.equal(await card.locator('form').count(), 0);
    assert.match(await card.innerText(), /answered/);
    assert.match(await card.getByRole('list', { name: 'Your answer' }).innerText(), /New line: Add a TODO line\s+How many: 2/);
    // After a reload (a fresh snapshot) the record is the same; a pending one with no live request is not a form.
    await send(snapshot([question('q1', { status: 'accept', answer: { question_0: 'Add a TODO line' } }), question('q2')], panel()));
    await flush();
    assert.match(await page.locator('[data-key="q1"]').innerText(), /New line: Add a TODO line/);
    assert.match(await page.locator('[data-key="q2"]').innerText(), /no longer waiting/);
    assert.equal(await page.locator('[data-key="q2"] form').count(), 0);
  });

  test('elicitation: URL mode shows the origin only, and posts accept only when the user opens it', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    const url = 'https://auth.example.com/device?code=SECRET';
    await send(
      snapshot([question('q1', { mode: 'url', requestedSchema: null, elicitationId: 'e1', url, message: 'Sign in to continue' })], {
        ...panel(),
        elicitations: [prompt('q1', { mode: 'url', requestedSchema: null, url })],
      }),
    );
    await flush();
    await clearPosted();
    const card = page.locator('[data-key="q1"]');
    assert.match(await card.innerText(), /Opens a page on https:\/\/auth\.example\.com in your browser/);
    assert.doesNotMatch(await card.innerText(), /SECRET/);
    assert.equal(await card.locator('a').count(), 0, 'no clickable agent link');
    await card.getByRole('button', { name: 'Open in browser' }).click();
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [{ type: 'elicitation', requestId: 'eli-1', action: 'accept' }],
    );
    // A URL that may not be opened offers no Open button.
    await send(
      snapshot([question('q2', { mode: 'url', requestedSchema: null, url: 'http://evil.example.com/' })], {
        ...panel(),
        elicitations: [prompt('q2', { mode: 'url', requestedSchema: null, url: 'http://evil.example.com/' })],
      }),
    );
    await flush();
    assert.equal(await page.locator('[data-key="q2"]').getByRole('button', { name: 'Open in browser' }).count(), 0);
    assert.match(await page.locator('[data-key="q2"]').innerText(), /will not be opened: plain http is allowed only on this machine/);
    // elicitation/complete marks the record done.
    await send(snapshot([question('q1', { mode: 'url', requestedSchema: null, url, status: 'accept', completed: true })], panel()));
    await flush();
    assert.match(await page.locator('[data-key="q1"]').innerText(), /opened, completed/);
  });
}

export function registerOrphans(test) {
  test('elicitation: a question asked before any session (no entry) is shown above the prompt box and answerable', async ({ open }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    const schema = { type: 'object', required: ['token'], properties: { token: { type: 'string', title: 'Workspace name', minLength: 2 } } };
    await send(snapshot([], { ...panel(), elicitations: [prompt(null, { message: 'Name your workspace', requestedSchema: schema })] }));
    await flush();
    const card = page.locator('.orphan-questions [role="group"]');
    assert.match(await card.innerText(), /Name your workspace/);
    await clearPosted();
    await card.getByRole('textbox', { name: /Workspace name/ }).fill('ok');
    await card.getByRole('textbox', { name: /Workspace name/ }).press('Enter');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [{ type: 'elicitation', requestId: 'eli-1', action: 'accept', content: { token: 'ok' } }],
    );
    assertClean(await axeRun(page), 'orphan question');
    await send(patch({ op: 'panel', panel: { elicitations: [] } }));
    await flush();
    assert.equal(await page.locator('.orphan-questions').isHidden(), true);
  });
}

/** Questions tied to a tool call the transcript shows: drawn on that tool call's card. */
export function registerOnToolCards(test) {
  const askTool = (over = {}) => toolCall('t1', { toolCallId: 'toolu_1', title: 'AskUserQuestion', status: 'in_progress', ...over });

  test('elicitation: a question tied to a tool call is drawn on its tool card, answered by keyboard, passes axe; the answer stays on the card after a reload', async ({ open }) => {
    const { page, send, flush, posted, clearPosted, errors } = await open();
    await send(snapshot([message('user_message', 'u1', 'Ask me'), askTool(), question('q1')], { ...panel(), turn: 'busy', elicitations: [prompt('q1')] }));
    await flush();
    const tool = page.locator('[data-key="t1"][data-kind="tool_call"]');
    assert.equal(await tool.locator('.tool-card form.eli-form').count(), 1, 'the form is inside the tool card');
    assert.equal(await page.locator('form.eli-form').count(), 1, 'and nowhere else');
    assert.equal(await page.locator('[data-key="q1"]').isHidden(), true, "the question's own entry shows nothing");
    assert.equal(await tool.getByRole('group', { name: 'Demo Agent asks' }).count(), 1);
    assert.match(await tool.innerText(), /AskUserQuestion[\s\S]*Which line should I add to notes\.txt\?/);
    assert.doesNotMatch(await page.locator('.transcript').innerText(), /toolu_1/, 'no raw tool call id');
    assert.match(await tool.getAttribute('class'), /\bawaiting\b/);
    assertClean(await axeRun(page), 'question on a tool card');
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    await tool.screenshot({ path: path.join(root, 'test-results', 'webview-question-on-tool-card.png') });
    await clearPosted();
    await answerByKeys(page, tool);
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [KEYED_ANSWER],
    );
    const answered = question('q1', { status: 'accept', answer: { question_0: 'Add a TODO line', count: 1, sure: true } });
    await send(patch({ op: 'panel', panel: { elicitations: [] } }, { op: 'replace', h: 2, entry: answered }));
    await flush();
    assert.equal(await tool.locator('form').count(), 0);
    assert.match(await tool.getByRole('list', { name: 'Your answer' }).innerText(), /New line: Add a TODO line/);
    assert.doesNotMatch(await tool.getAttribute('class'), /\bawaiting\b/);
    // A reload (a fresh snapshot) draws the record on the same card.
    await send(snapshot([message('user_message', 'u1', 'Ask me'), askTool({ status: 'completed' }), answered], panel()));
    await flush();
    assert.match(await page.locator('[data-key="t1"] .question-slot').innerText(), /answered[\s\S]*New line: Add a TODO line/);
    assert.equal(await page.locator('[data-key="q1"]').isHidden(), true);
    assert.deepEqual(errors, []);
  });

  test('elicitation: several questions on one tool card queue there; a tool card that comes later takes its question; an unknown tool call leaves it on its own', async ({
    open,
  }) => {
    const { page, send, flush, posted, clearPosted } = await open();
    const prompts = [prompt('q1'), prompt('q2', { requestId: 'eli-2', message: 'And then?' }), prompt('q3', { requestId: 'eli-3', message: 'Elsewhere?' })];
    await send(
      snapshot(
        [askTool(), question('q1'), question('q2', { requestId: 1, message: 'And then?' }), question('q3', { requestId: 2, message: 'Elsewhere?', toolCallId: 'toolu_gone' })],
        { ...panel(), elicitations: prompts },
      ),
    );
    await flush();
    const tool = page.locator('[data-key="t1"]');
    assert.deepEqual(await tool.locator('form.eli-form').evaluateAll((fs) => fs.map((f) => f.dataset.requestId)), ['eli-1', 'eli-2']);
    const alone = page.locator('[data-key="q3"]');
    assert.equal(await alone.isVisible(), true);
    assert.equal(await alone.locator('form.eli-form').count(), 1);
    assert.doesNotMatch(await alone.innerText(), /toolu_gone/);
    await clearPosted();
    await tool.locator('form[data-request-id="eli-2"] input[type="radio"]').first().focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'elicitation'),
      [{ type: 'elicitation', requestId: 'eli-2', action: 'cancel' }],
    );
    // The tool call the third question names is reported after it: the question moves onto its card.
    await send(patch({ op: 'insert', index: 4, entry: toolCall('t2', { toolCallId: 'toolu_gone', title: 'Pick a colour' }) }));
    await flush();
    assert.equal(await page.locator('[data-key="t2"] form[data-request-id="eli-3"]').count(), 1);
    assert.equal(await alone.isHidden(), true);
    // The agent exits: no one waits for the questions any more, and the card says so instead of a form.
    await send(patch({ op: 'panel', panel: { turn: 'exited', elicitations: [] } }));
    await flush();
    assert.equal(await page.locator('form.eli-form').count(), 0);
    assert.match(await tool.locator('.question-slot').innerText(), /no longer waiting/);
    assert.doesNotMatch(await tool.getAttribute('class'), /\bawaiting\b/);
  });
}
