// `cli run`'s transcript printer with subagents: the recorded Claude transcripts (both forms) and hostile input.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { FedPrinter, printCapture, type Update } from './printerFeed';

const fixtures = path.join(__dirname, '../../fixtures/transcripts');

interface Printed {
  readonly out: string;
  readonly warnings: string[];
}

/** A recorded transcript as `cli run` prints it, with its warnings line by line. */
function printTranscript(name: string): Printed {
  const { out, err } = printCapture(path.join(fixtures, name));
  return { out, warnings: err.split(/(?<=\n)/).filter((l) => l !== '') };
}

/** A printer fed by hand: `root` is the run's session. */
function printer(root = 'root'): { p: FedPrinter; printed: () => Printed } {
  let out = '';
  const warnings: string[] = [];
  const p = new FedPrinter(
    (s) => (out += s),
    (s) => warnings.push(s),
  );
  p.attach(root);
  return { p, printed: () => ({ out, warnings }) };
}
const up = (sessionId: string, update: Record<string, unknown>): Update => ({ sessionId, update: { sessionUpdate: String(update['sessionUpdate']), ...update } });
const text = (sessionId: string, t: string) => up(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
const announce = (on: string, child: string, extra: Record<string, unknown> = {}) =>
  up(on, { sessionUpdate: 'subagent_update', sessionId: child, title: `${child} task`, state: { state: 'running' }, ...extra });

/** The lines matching each pattern appear in this order (each exactly once). */
function inOrder(out: string, patterns: RegExp[]): void {
  const lines = out.split('\n');
  let last = -1;
  for (const re of patterns) {
    const at = lines.flatMap((l, i) => (re.test(l) ? [i] : []));
    assert.equal(at.length, 1, `${re} should match one line, matched ${at.length}:\n${out}`);
    assert.ok(at[0]! > last, `${re} is out of order:\n${out}`);
    last = at[0]!;
  }
}

describe('cli run printer: subagents', () => {
  it('foreground subagent (claude-next-subagent): header, prompt once, the child indented, state, reply', () => {
    const { out, warnings } = printTranscript('claude-next-subagent.jsonl');
    assert.deepEqual(warnings, []);
    inOrder(out, [
      /^\[subagent\] Read notes\.txt \(general-purpose\) started$/,
      /^\[to subagent Read notes\.txt\] Read notes\.txt in the current directory and report its contents in one sentence\. \(subagent task\)$/,
      /^ {2}Reading `notes\.txt` for the parent agent\.$/,
      /^ {2}\[tool\] Read notes\.txt \(completed\)$/,
      /^ {2}Report: notes\.txt has one line, “hello”\. ✅$/,
      /^\[subagent\] Read notes\.txt: done$/,
      /^\[from subagent Read notes\.txt\] <tools-used-before-summary>Read<\/tools-used-before-summary>$/,
      /^Nothing else to do\. 🎉$/,
      /^\[stop\] end_turn$/,
    ]);
  });

  it('background subagent (claude-next-subagent-bg): the parent text cut by the child goes on with "…"; the late turn is printed', () => {
    const { out, warnings } = printTranscript('claude-next-subagent-bg.jsonl');
    assert.deepEqual(warnings, []);
    inOrder(out, [
      /^\[subagent\] Read notes\.txt \(general-purpose\) started$/,
      /^ {2}\[tool\] Read notes\.txt \(completed\)$/,
      /^\[subagent\] Read notes\.txt: done$/,
      /^\[stop\] end_turn$/,
      /^The background subagent finished\. It says:$/,
    ]);
    // The parent's sentence, interrupted by the child's lines, reads on from "…" lines at the parent's depth.
    const parentText = out.split('\n').filter((l) => /^(The subagen|…)/.test(l));
    assert.equal(parentText.map((l) => l.replace(/^…/, '')).join(''), "The subagent is reading `notes.txt` in the background; I'll pass on its report when it arrives.");
    assert.ok(parentText.length > 1, 'the child really cut the parent');
  });

  it('legacy form (no subagents capability): the child tool calls are indented under the Agent call, no [subagent] lines', () => {
    const { out, warnings } = printTranscript('claude-next-subagent-legacy.jsonl');
    assert.deepEqual(warnings, []);
    assert.doesNotMatch(out, /\[subagent\]|\[to subagent|\[from subagent/);
    inOrder(out, [
      /^\[tool\] Task \(pending\)$/,
      /^ {2}\[tool\] Read notes\.txt \(pending\)$/,
      /^ {2}\[tool\] Read notes\.txt \(completed\)$/,
      /^\[tool\] Read notes\.txt \(completed\)$/,
    ]);
  });

  it('state changes: needs you, stopped (reason), running again; a repeated state prints nothing', () => {
    const { p, printed } = printer();
    p.update(announce('root', 'c', { title: 'Fix', description: null }));
    for (const state of [
      { state: 'requires_action' },
      { state: 'requires_action' },
      { state: 'running' },
      { state: 'idle', stopReason: 'cancelled' },
      { state: 'idle', stopReason: 'end_turn' },
    ]) {
      p.update(up('root', { sessionUpdate: 'subagent_update', sessionId: 'c', state }));
    }
    p.update(up('root', { sessionUpdate: 'subagent_update', sessionId: 'c', title: 'Fix again' }));
    p.update(up('root', { sessionUpdate: 'subagent_update', sessionId: 'c', state: null }));
    assert.equal(
      printed().out,
      ['[subagent] Fix started', '[subagent] Fix: needs you', '[subagent] Fix: running', '[subagent] Fix: stopped (cancelled)', '[subagent] Fix: done', ''].join('\n'),
    );
  });

  it('depth: a grandchild is indented twice, its multi-line text on every line, its state under its parent', () => {
    const { p, printed } = printer();
    p.update(announce('root', 'c'));
    p.update(announce('c', 'g'));
    p.update(text('g', 'one\ntwo'));
    p.update(up('c', { sessionUpdate: 'subagent_update', sessionId: 'g', state: { state: 'idle' } }));
    p.update(text('root', 'back'));
    assert.equal(printed().out, ['[subagent] c task started', '  [subagent] g task started', '    one', '    two', '  [subagent] g task: done', 'back'].join('\n'));
  });

  it('streamed session_message_chunks: one line with the prefix; the twin view in the child prints nothing', () => {
    const { p, printed } = printer();
    p.update(announce('root', 'c'));
    p.update(up('root', { sessionUpdate: 'session_message', messageId: 'm', senderSessionId: 'root', recipientSessionId: 'c', recipientMessageId: 'mc' }));
    for (const t of ['Do ', 'it']) p.update(up('root', { sessionUpdate: 'session_message_chunk', messageId: 'm', content: { type: 'text', text: t } }));
    p.update(
      up('c', {
        sessionUpdate: 'session_message',
        messageId: 'mc',
        senderSessionId: 'root',
        recipientSessionId: 'c',
        senderMessageId: 'm',
        content: [{ type: 'text', text: 'Do it' }],
      }),
    );
    p.update(up('c', { sessionUpdate: 'session_message_chunk', messageId: 'mc', content: { type: 'text', text: 'Do it' } }));
    p.update(up('root', { sessionUpdate: 'session_message', messageId: 'r', senderSessionId: 'c', recipientSessionId: 'root', content: [{ type: 'text', text: 'Did it' }] }));
    assert.equal(printed().out, ['[subagent] c task started', '[to subagent c task] Do it', '[from subagent c task] Did it', ''].join('\n'));
  });

  it("hostile: a session nobody opened or announced is never printed as the session's text; one warning per id", () => {
    const { p, printed } = printer();
    p.update(text('root', 'mine'));
    p.update(text('evil', 'PWNED'));
    p.update(up('evil', { sessionUpdate: 'tool_call', toolCallId: 't', title: 'rm -rf', status: 'pending' }));
    // It cannot bring children in, nor claim the run's session or an existing child as its own.
    p.update(announce('evil', 'spawn'));
    p.update(text('spawn', 'PWNED too'));
    p.update(announce('root', 'c'));
    p.update(announce('c', 'root'));
    p.update(announce('c', 'c'));
    // A sibling does not speak for another session's child.
    p.update(announce('root', 'c2'));
    p.update(up('c2', { sessionUpdate: 'subagent_update', sessionId: 'c', title: 'renamed', state: { state: 'idle' } }));
    p.update(text('root', ' again'));
    const { out, warnings } = printed();
    assert.doesNotMatch(out, /PWNED|rm -rf|spawn/);
    assert.equal(out, ['mine', '[subagent] c task started', '[subagent] c2 task started', ' again'].join('\n'));
    assert.equal(warnings.length, 2, warnings.join(''));
    assert.match(warnings[0]!, /not printing updates for session "evil": this run did not open it and no subagent_update announced it/);
    assert.match(warnings[1]!, /"spawn"/);
  });

  it('hostile: invented session ids by the thousand give a few warning lines; nesting by the hundred a bounded indent', () => {
    const { p, printed } = printer();
    for (let i = 0; i < 1000; i++) p.update(text(`x${i}`, 'PWNED'));
    for (let i = 0; i < 100; i++) p.update(announce(i === 0 ? 'root' : `c${i - 1}`, `c${i}`));
    p.update(text('c99', 'deep'));
    const { out, warnings } = printed();
    assert.equal(warnings.length, 9);
    assert.match(warnings[8]!, /further sessions/);
    assert.doesNotMatch(out, /PWNED/);
    assert.match(out, new RegExp(`\\n {24}deep$`));
  });

  it('updates before the run knows its session are held until it does, then printed only for it', () => {
    let out = '';
    const warnings: string[] = [];
    const p = new FedPrinter(
      (s) => (out += s),
      (s) => warnings.push(s),
    );
    p.update(text('s1', 'early'));
    p.update(text('other', 'not mine'));
    assert.equal(out, '');
    p.attach('s1');
    assert.equal(out, 'early');
    assert.equal(warnings.length, 1);
  });
});
