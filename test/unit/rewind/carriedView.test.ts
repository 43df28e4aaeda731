// A branch's first message shows its carried transcript folded: what was sent, its size and message count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriedSummary, splitCarried } from '../../../src/common/rewind/carriedView';
import { carriedPrompt, CARRIED_META, CARRIED_MESSAGES_META } from '../../../src/common/rewind/branchPlan';
import type { ContentBlock } from '../../../src/common/protocol/content';

const carried = { markdown: '# Earlier conversation\n\n## User\n\nhi\n', omitted: 0, messages: 1 };
const edited: ContentBlock[] = [{ type: 'text', text: 'the edited question' }];

test('an embedded transcript: the lead, the Markdown, its size and message count; the own blocks apart', () => {
  const content = carriedPrompt({ kind: 'newSession', carried, carry: 'embedded' }, 'file:///store/b.md', edited);
  const { carried: v, own } = splitCarried(content);
  assert.deepEqual(own, edited);
  assert.ok(v);
  assert.match(v.lead ?? '', /continues an earlier conversation/);
  assert.equal(v.markdown, carried.markdown);
  assert.equal(v.uri, 'file:///store/b.md');
  assert.equal(v.bytes, carried.markdown.length);
  assert.equal(v.messages, 1);
  assert.equal(carriedSummary(v), `Earlier conversation sent with this message · 1 message · ${carried.markdown.length} B`);
});

test("a linked transcript: no Markdown, the link's size; said to be a link", () => {
  const content = carriedPrompt({ kind: 'newSession', carried: { ...carried, messages: 12 }, carry: 'link' }, 'file:///store/b.md', edited);
  const { carried: v } = splitCarried(content);
  assert.ok(v);
  assert.equal(v.markdown, null);
  assert.equal(v.uri, 'file:///store/b.md');
  assert.equal(carriedSummary(v), `Earlier conversation sent with this message · 12 messages · ${carried.markdown.length} B (as a link to the file)`);
  assert.match(carriedSummary({ ...v, bytes: 2_500_000, messages: null }), /· 2\.4 MB \(as a link/);
  assert.match(carriedSummary({ ...v, bytes: 5_000 }), /· 4\.9 KB/);
});

test('no carried blocks: nothing to fold; a count that is not a count is ignored', () => {
  assert.deepEqual(splitCarried(edited), { carried: null, own: edited });
  const odd: ContentBlock[] = [{ type: 'resource_link', uri: 'file:///b.md', name: 'b.md', _meta: { [CARRIED_META]: true, [CARRIED_MESSAGES_META]: 'many' } }];
  assert.equal(splitCarried(odd).carried?.messages, null);
});
