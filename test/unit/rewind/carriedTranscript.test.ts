// The carried transcript stays under its cap: older parts go first, with a marker saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriedTranscript } from '../../../src/common/rewind/carriedTranscript';
import type { MessageEntry } from '../../../src/common/store/model';

const stats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };
const msg = (kind: MessageEntry['kind'], key: string, text: string): MessageEntry => ({
  kind,
  key,
  messageId: null,
  content: [{ type: 'text', text }],
  meta: null,
  provenance: 'live',
  stats,
});

test('everything fits: no marker', () => {
  const t = carriedTranscript([msg('user_message', 'a', 'hi'), msg('agent_message', 'b', 'hello')], 'Demo');
  assert.equal(t.omitted, 0);
  assert.doesNotMatch(t.markdown, /left out/);
});

test('over the cap: the oldest parts are left out whole, the newest kept, a marker counts them', () => {
  const entries = Array.from({ length: 20 }, (_, i) => msg(i % 2 ? 'agent_message' : 'user_message', `k${i}`, `turn ${i} ${'x'.repeat(100)}`));
  const t = carriedTranscript(entries, 'Demo', 800);
  assert.ok(t.markdown.length <= 800, `${t.markdown.length}`);
  assert.ok(t.omitted > 0);
  assert.match(t.markdown, new RegExp(`> \\[${t.omitted} earlier parts of the conversation left out`));
  assert.match(t.markdown, /turn 19 /);
  assert.doesNotMatch(t.markdown, /turn 0 /);
});

test('a newest part longer than the cap keeps its end, marked', () => {
  const t = carriedTranscript([msg('user_message', 'a', 'old'), msg('agent_message', 'b', `${'y'.repeat(5000)}THE END`)], 'Demo', 1000);
  assert.ok(t.markdown.length <= 1000, `${t.markdown.length}`);
  assert.match(t.markdown, /THE END\n$/);
  assert.match(t.markdown, /\[…\]/);
  assert.doesNotMatch(t.markdown, /old/);
});
