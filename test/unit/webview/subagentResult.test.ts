// A subagent's result where its card's reply is not it (subagentResult.ts), from the recorded Claude turns:
// the background form's reply is "Async agent launched…", sent while the child still runs; the card's result is
// then the child's own last message once it is done (nothing while it runs). The foreground form's reply comes
// once the child is done and is the result itself. The store's clock is the recording's (`t_ms`), as a live
// chat's and an opened capture's are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageStore } from '../../../src/common/store';
import { mayChangeResults, subagentResults } from '../../../src/common/webview/subagentResult';
import { CaptureChat } from '../../../src/node/capture/captureChat';

function recording(name: string) {
  const text = readFileSync(path.join(__dirname, '../../fixtures/transcripts', name), 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let clock = 0;
  const store = new MessageStore({ now: () => clock });
  let next = 0;
  /** Applies lines until `until` holds after one (or all of them); returns whether any delta could change a result. */
  const play = (until: () => boolean = () => false) => {
    let may = false;
    while (next < lines.length) {
      const line = lines[next]!;
      clock = (JSON.parse(line) as { t_ms?: number }).t_ms ?? clock;
      may = mayChangeResults(store.ingestLine(line, ++next)) || may;
      if (until()) break;
    }
    return may;
  };
  return { store, play, text };
}
const ROOT_BG = '9553866d-d864-48bd-8523-da2eef42232b';
const CHILD_BG = 'a0f9de64b5c2074e1';
const textOf = (blocks: readonly { type: string; text?: string }[] | undefined) => blocks?.map((b) => b.text ?? '').join('');

test('background subagent: its "launched" reply is no result; once the child is done, its own last message is', () => {
  const { store, play } = recording('claude-next-subagent-bg.jsonl');
  const reply = () => store.session(ROOT_BG)?.entries.find((e) => e.kind === 'session_message' && e.route?.senderSessionId === CHILD_BG);
  assert.ok(
    play(() => reply() !== undefined),
    'the reply is a delta that may change the results',
  );
  const r = reply();
  assert.match(textOf(r?.kind === 'session_message' ? r.content : undefined) ?? '', /^Async agent launched/);
  assert.deepEqual(Object.keys(subagentResults(store, ROOT_BG)), [], 'while the child runs: no result');
  const card = () => store.session(ROOT_BG)?.entries.find((e) => e.kind === 'subagent');
  play(() => card()?.kind === 'subagent' && card()?.state === 'idle');
  const results = subagentResults(store, ROOT_BG);
  assert.deepEqual(Object.keys(results), [CHILD_BG]);
  assert.equal(textOf(results[CHILD_BG]), 'Report: notes.txt has one line, “hello”. ✅');
  play();
  assert.equal(textOf(subagentResults(store, ROOT_BG)[CHILD_BG]), 'Report: notes.txt has one line, “hello”. ✅');
});

test('foreground subagent: the reply comes once the child is done and is the result: nothing instead of it', () => {
  const { store, play } = recording('claude-next-subagent.jsonl');
  play();
  assert.deepEqual(Object.keys(subagentResults(store, 'b830f726-44af-401b-a4b4-799f7f25aafa')), []);
});

test("a capture opened read-only shows the background subagent's result as the live chat did", () => {
  const { text } = recording('claude-next-subagent-bg.jsonl');
  const c = new CaptureChat('bg.jsonl', text, { openLink: () => undefined, openLocation: () => undefined, copy: () => undefined, openDiff: () => undefined });
  c.playAll();
  assert.equal(textOf(c.snapshot().panel.subagentResults?.[CHILD_BG]), 'Report: notes.txt has one line, “hello”. ✅');
  c.dispose();
});
