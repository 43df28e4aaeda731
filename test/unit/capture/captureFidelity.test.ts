// A chat opened from its capture shows exactly what the live chat showed: the transcript, terminal
// output and exit, plan, usage, title, notices and the turns' Changes summaries. The live chat records
// to a real CaptureFile; the capture is then played into a CaptureChat and both panels are compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/node/chat/chatController';
import { CaptureChat } from '../../../src/node/capture/captureChat';
import { CaptureFile } from '../../../src/node/capture/captureFile';
import { NodeTerminalHost } from '../../../src/node/terminals';
import { MessageStore } from '../../../src/common/store';
import type { Entry } from '../../../src/common/store/model';
import type { PanelState } from '../../../src/common/webview/contract';
import { toViewEntry } from '../../../src/common/webview/viewEntry';
import { sessionViews } from '../../../src/common/changes/view';
import { restoreChanges, savedChanges } from '../../../src/common/changes/persist';
import { inProcessDemoAgent, chatOptions } from '../session/harness';

const ui = { openLink() {}, openLocation() {}, copy() {}, openDiff() {} };

/** "Thought for N s", as the webview shows a thought's span (entryModel.ts). */
const seconds = (span: { first: number; last: number }) => Math.max(1, Math.round((span.last - span.first) / 1000));

/**
 * What a panel shows, with entry keys (new in every store) replaced by the entry's place, and a thought's
 * span by the seconds shown (the live clock and the recording's differ by the write's millisecond).
 */
function shown(entries: readonly Entry[], panel: PanelState) {
  const place = new Map(entries.map((e, i) => [e.key, i]));
  return {
    entries: entries.map((e) => {
      const { span, ...v } = toViewEntry(e) as ReturnType<typeof toViewEntry> & { span?: { first: number; last: number } };
      return { ...v, key: place.get(e.key), ...(span ? { thoughtSeconds: seconds(span) } : {}) };
    }),
    plan: panel.plan,
    usage: panel.usage,
    title: panel.title,
    modes: [panel.currentModeId, panel.availableModes],
    commands: panel.availableCommands,
    configOptions: panel.configOptions,
    terminals: panel.terminals,
    notices: panel.notices,
    // Where a summary is placed is checked on its own (below).
    changeSets: panel.changeSets.map(({ afterKey: _, ...s }) => s),
    changeSetPlaces: panel.changeSets.map((s) => (s.afterKey === null ? null : (place.get(s.afterKey) ?? 'an entry the transcript does not have'))),
  };
}

/** A live chat with the demo agent (a turn, a terminal, a Changes summary) recording to a capture, and that capture opened. */
async function liveAndReplayed() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fidelity-'));
  const file = path.join(dir, 'chat.jsonl');
  const capture = CaptureFile.at(file, (m) => assert.fail(m));
  let owner: ChatController | undefined;
  const terminals = new NodeTerminalHost({
    defaultCwd: process.cwd(),
    onOutput: (id, text) => owner?.terminalEvent(id, text),
    onExit: (id, status) => owner?.terminalEvent(id, '', { exitCode: status.exitCode ?? null, signal: status.signal ?? null }),
  });
  const agent = inProcessDemoAgent();
  const session = new ChatController(
    chatOptions({
      store: new MessageStore(),
      connect: agent.connect,
      cwd: dir,
      handlers: () => ({
        requestPermission: async (p, _signal, askUser) => ({
          outcome: await askUser({ toolCallId: p.toolCall.toolCallId, toolCallKey: null, title: '', options: p.options }),
        }),
        terminals,
      }),
      sinks: { capture: (d, msg, seq, raw) => capture.write(d, msg, seq, raw), persist: () => undefined },
    }),
  );
  owner = session;
  await session.start();
  session.prompt('hello');
  await session.whenIdle();
  session.prompt('run a command');
  await session.whenIdle();
  const sessionId = session.sessionId;
  assert.ok(sessionId);
  // The Changes review records its summaries through the chat (a turn that edited src/a.ts).
  const entries = session.entries();
  const afterKey = entries.at(-1)?.key ?? null;
  const file1 = {
    path: path.join(dir, 'src', 'a.ts'),
    oldText: 'a\n',
    agentText: 'b\n',
    source: 'write' as const,
    state: 'pending' as const,
    note: null,
    blocked: null,
    added: 1,
    removed: 1,
  };
  const saved = savedChanges({ seq: 1, sets: [{ id: 'c1', sessionId, afterKey, ended: true, files: [file1] }] });
  session.recordChanges(saved);
  // What the live panel shows (its review's views: paths relative to the workspace, here the chat's folder).
  const live = session.snapshot();
  const liveChanges = sessionViews(restoreChanges(saved).state, sessionId, (p) => path.relative(dir, p));
  terminals.dispose();
  session.dispose();

  const chat = new CaptureChat('chat.jsonl', readFileSync(file, 'utf8'), ui);
  chat.playAll();
  const replayed = chat.snapshot();
  chat.dispose();
  return { expected: shown(live.entries, { ...live.panel, changeSets: liveChanges }), replayed };
}

test('a chat opened from its capture shows what the live chat showed: transcript, terminals, Changes, plan, usage, title, notices', async () => {
  const { expected, replayed } = await liveAndReplayed();
  assert.ok(
    expected.plan && expected.title && Object.keys(expected.terminals).length === 1 && expected.changeSets.length === 1,
    'the live chat showed a plan, a title, a terminal and Changes',
  );
  assert.match(Object.values(expected.terminals)[0]?.output ?? '', /Hello from the demo terminal/);
  const { changeSetPlaces: places, ...rest } = shown(replayed.entries, replayed.panel);
  const { changeSetPlaces: livePlaces, ...liveRest } = expected;
  assert.deepEqual(rest, liveRest);
  assert.equal(replayed.panel.readOnly, true);
  assert.equal(places.length, livePlaces.length);
});

// The saved summaries name the entry they follow by its key, which only the live store had (every store
// mints its own): the capture note carries the entry's place, and the replaying store finds its own key there.
test('a Changes summary opened from a capture is placed after the entry it followed live', async () => {
  const { expected, replayed } = await liveAndReplayed();
  assert.ok(expected.changeSetPlaces.length === 1 && typeof expected.changeSetPlaces[0] === 'number', 'the live summary follows an entry');
  assert.deepEqual(shown(replayed.entries, replayed.panel).changeSetPlaces, expected.changeSetPlaces);
});
