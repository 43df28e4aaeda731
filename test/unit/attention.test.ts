import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AttentionWatch, attentionText } from '../../src/common/attention';

const perm = (requestId: string, title = 'Edit a.txt') => ({ requestId, toolCallKey: null, toolCallId: 't', title, options: [] });
const question = (requestId: string, message = 'Which branch?') => ({ requestId, entryKey: null, mode: 'form', message, requestedSchema: {}, url: null });

describe('attention', () => {
  it('a turn that ends (or stops) calls for the user; starting, connecting and idling do not', () => {
    const w = new AttentionWatch();
    assert.deepEqual(w.observe({ turn: 'starting' }), []);
    assert.deepEqual(w.observe({ turn: 'idle' }), []);
    assert.deepEqual(w.observe({ turn: 'busy' }), []);
    assert.deepEqual(w.observe({ turn: 'cancelling' }), []);
    assert.deepEqual(w.observe({ turn: 'idle' }), [{ kind: 'turnEnded', how: 'done' }]);
    assert.deepEqual(w.observe({ turn: 'idle' }), []);
    w.observe({ turn: 'busy' });
    assert.deepEqual(w.observe({ turn: 'exited' }), [{ kind: 'turnEnded', how: 'stopped' }]);
  });

  it('each permission and question is told once, however often the list is published', () => {
    const w = new AttentionWatch();
    assert.deepEqual(w.observe({ permissions: [perm('1')] }), [{ kind: 'permission', title: 'Edit a.txt' }]);
    assert.deepEqual(w.observe({ permissions: [perm('1')], elicitations: [question('9')] }), [{ kind: 'question', title: 'Which branch?' }]);
    assert.deepEqual(w.observe({ permissions: [perm('1'), perm('2', 'Run ls')] }), [{ kind: 'permission', title: 'Run ls' }]);
    assert.deepEqual(w.observe({ elicitations: [question('9')] }), [], 'the question is still remembered when only questions are published');
    assert.deepEqual(w.observe({ permissions: [] }), []);
  });

  it('words the notification', () => {
    assert.equal(attentionText('Chat 1', { kind: 'turnEnded', how: 'done' }), 'Chat 1: the agent finished.');
    assert.equal(attentionText('Chat 1', { kind: 'permission', title: 'Edit a.txt' }), 'Chat 1: the agent asks for permission: Edit a.txt');
  });
});
