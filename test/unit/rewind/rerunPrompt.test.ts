// Retry and Regenerate send a user message again from the store's record of it: its own text, images and
// context, and a branch's carried transcript unchanged in front.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUserMessage, promptOfMessage } from '../../../src/common/rewind/rerunPrompt';
import { CARRIED_META } from '../../../src/common/rewind/branchPlan';
import type { ContentBlock } from '../../../src/common/protocol/content';
import type { Entry } from '../../../src/common/store/model';

const entry = (kind: 'user_message' | 'agent_message', key: string, text: string): Entry =>
  ({
    kind,
    key,
    messageId: null,
    content: [{ type: 'text', text }],
    meta: null,
    provenance: 'local',
    stats: { firstSeen: 0, lastSeen: 0, chunks: 1, bytes: 0 },
  }) as unknown as Entry;

test('the last user message is the newest one, whatever follows it; none in an empty chat', () => {
  const entries = [entry('user_message', 'u1', 'one'), entry('agent_message', 'a1', 'x'), entry('user_message', 'u2', 'two'), entry('agent_message', 'a2', 'y')];
  assert.equal(lastUserMessage(entries)?.key, 'u2');
  assert.equal(lastUserMessage(entries.slice(0, 2))?.key, 'u1');
  assert.equal(lastUserMessage([entry('agent_message', 'a', 'x')]), undefined);
  assert.equal(lastUserMessage([]), undefined);
});

test('text, images and context come back; a carried transcript stays in front, as sent', () => {
  const lead: ContentBlock = { type: 'text', text: 'This continues…', _meta: { [CARRIED_META]: true } };
  const transcript: ContentBlock = { type: 'resource_link', uri: 'file:///store/b.md', name: 'earlier-conversation.md', _meta: { [CARRIED_META]: true } };
  const content: ContentBlock[] = [
    lead,
    transcript,
    { type: 'text', text: 'try again' },
    { type: 'resource', resource: { uri: 'file:///ws/a.ts#L2-3', text: 'x\ny' } },
    { type: 'image', mimeType: 'image/png', data: 'AAAA' },
  ];
  const p = promptOfMessage(content);
  assert.equal(p.text, 'try again');
  assert.deepEqual(p.images, [{ mimeType: 'image/png', data: 'AAAA' }]);
  assert.deepEqual(p.context, [{ id: 'rerun-0', kind: 'selection', path: '/ws/a.ts', lines: [2, 3], text: 'x\ny', size: 3 }]);
  assert.deepEqual(p.carried, [lead, transcript]);
});

test('a plain message has no context and no carried transcript', () => {
  assert.deepEqual(promptOfMessage([{ type: 'text', text: 'hi' }]), { text: 'hi', images: [] });
});
