import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoTitle } from '../../../src/node/demoAgent/title';

test('the demo titles a session by the user’s words, not by the transcript a branch carries after them', () => {
  const prompt = [
    { type: 'text', text: '  Tell me more instead ' },
    { type: 'text', text: 'This message continues an earlier conversation; its transcript …' },
    { type: 'resource', resource: { uri: 'file:///x.md', text: '# Earlier' } },
  ];
  assert.equal(demoTitle(prompt, 'ignored'), 'Tell me more instead');
  assert.equal(demoTitle([{ type: 'image' }], '[image]'), '[image]');
  assert.equal(demoTitle([], ''), 'Untitled');
  assert.equal(demoTitle([{ type: 'text', text: 'x'.repeat(100) }], '').length, 60);
});
