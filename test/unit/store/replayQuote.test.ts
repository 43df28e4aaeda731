// quote(): how a replayed text is quoted in a diagnostic (replayText.ts): one line, at most 120 characters,
// an ellipsis whenever something was left out, the fold's fast path giving what the fold gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quote } from '../../../src/common/store/replayText';

const fold = (s: string) => s.replace(/\s+/g, ' ').trim();

test('quote folds whitespace onto one line and trims, as the plain fold does', () => {
  for (const s of ['plain words only', '  padded  ', 'a\nb\tc\r\nd', 'two  spaces', '\u00a0nbsp\u00a0', '', ' ', 'x\u2028y']) assert.equal(quote(s), fold(s), JSON.stringify(s));
});

test('quote cuts at 120 characters with an ellipsis', () => {
  const long = 'word '.repeat(40);
  assert.equal(quote(long), `${fold(long).slice(0, 120)}…`);
  assert.equal(quote('x'.repeat(120)), 'x'.repeat(120));
});

test('quote says something was left out when only whitespace kept it short', () => {
  const text = `start${' '.repeat(300)}end`;
  assert.equal(quote(text), 'start…');
  // A very long message costs no more than its head.
  assert.equal(quote('y'.repeat(1_000_000)).length, 121);
});
