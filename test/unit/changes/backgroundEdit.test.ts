// The demo agent's background subagent, whose edit waits on a permission answered after the parent's turn
// ended: that work is a review turn of its own (turnReview.ts), whose Changes hold the file and name both the
// delegation card and the subagent's own edit card; a restart of the chat ends that review then, not at
// the next prompt. Driven through the chat controller and the demo agent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/node/chat/chatController';
import { ChangeReview } from '../../../src/common/changes/review';
import { chatOptions, inProcessDemoAgent } from '../session/harness';
import { until } from '../../helpers/until.mjs';
import { BACKGROUND_MESSAGE } from '../../../src/node/chat/backgroundWork';
import { ManualClock } from '../helpers/manualClock';

function setup(clock?: ManualClock) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'acp-bg-review-'));
  const file = path.join(cwd, 'demo-edit.txt');
  writeFileSync(file, 'notes\n');
  let self: ChatController | undefined;
  const review = new ChangeReview({
    files: { read: async (p) => readFileSync(p, 'utf8'), restore: async () => undefined, mayRestore: async () => true },
    agentName: () => 'Demo',
    canonical: (p) => (path.isAbsolute(p) ? p : path.join(cwd, p)),
    shownPath: (p) => path.relative(cwd, p),
    openDiff: () => undefined,
    explain: () => undefined,
    save: () => undefined,
    log: () => undefined,
  });
  const c = new ChatController(
    chatOptions({
      cwd,
      connect: inProcessDemoAgent().connect,
      review,
      ...(clock ? { clock } : {}),
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) => ({
          outcome: await askUser({
            toolCallId: p.toolCall.toolCallId,
            toolCallKey: self?.toolCallKey(p.sessionId, p.toolCall.toolCallId) ?? null,
            title: p.toolCall.title ?? '',
            options: p.options,
          }),
        }),
        writeTextFile: async (p) => {
          const before = readFileSync(p.path, 'utf8');
          writeFileSync(p.path, p.content);
          review.wrote(c.sessionId!, p.path, before, p.content, c.entries().at(-1)?.key ?? null);
        },
      }),
    }),
  );
  self = c;
  return { c, review };
}

/** The chat's turn answered, its subagent working on in the background, its permission request pending. */
async function inBackground(c: ChatController) {
  await c.start();
  c.prompt('ask a subagent in the background');
  const perm = await until(() => c.panelState().permissions[0], "the subagent's permission request");
  await until(() => c.panelState().message === BACKGROUND_MESSAGE, 'the turn answered, the subagent working on in the background');
  return perm;
}

test('a background subagent’s edit allowed after its turn ended gets a summary naming its cards', async () => {
  const { c, review } = setup();
  const perm = await inBackground(c);
  assert.deepEqual(
    review.state.sets.filter((s) => s.ended),
    [],
    'nothing edited in the turn itself',
  );
  assert.equal(c.broker.respond(perm.requestId, 'demo-allow-once'), true);
  const set = await until(() => review.state.sets.find((s) => s.ended && s.files.length > 0), 'the background work’s summary', 20_000);
  const child = c.store.sessions().find((s) => s.parentSessionId === c.sessionId);
  const card = c.entries().find((e) => e.kind === 'subagent');
  const edit = child?.entries.find((e) => e.kind === 'tool_call');
  assert.deepEqual(
    set.files.map((f) => [path.basename(f.path), f.tools]),
    [['demo-edit.txt', [card?.key, edit?.key]]],
  );
  c.dispose();
});

test('a restart of the chat ends the background work’s review (its summary shows then, not at the next prompt)', async () => {
  // Time stands still: the background work never goes quiet by itself, so only the restart can end it.
  const { c, review } = setup(new ManualClock());
  const perm = await inBackground(c);
  assert.equal(c.broker.respond(perm.requestId, 'demo-allow-once'), true);
  await until(() => review.state.sets.some((s) => !s.ended && s.files.length > 0), 'the edit recorded in the open review');
  await c.restart();
  const set = await until(() => review.state.sets.find((s) => s.ended && s.files.length > 0), 'the background work’s summary after the restart');
  assert.deepEqual(
    set.files.map((f) => path.basename(f.path)),
    ['demo-edit.txt'],
  );
  c.dispose();
});
