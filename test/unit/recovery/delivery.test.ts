import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { promptLanded, ReplayedUserMessages, showsTurnWork } from '../../../src/common/recovery/delivery';

const update = (sessionId: string, update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } });
const chunk = (text: string, messageId?: string) => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });

describe('did a prompt land', () => {
  it('v1: joins the replayed chunks of a user message and finds the prompt text in it', () => {
    const r = new ReplayedUserMessages('s1');
    r.observe(update('s1', chunk('first ')));
    r.observe(update('s1', chunk('question')));
    r.observe(update('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'answer' } }));
    r.observe(update('s1', chunk('<context>…</context> fix   the\nbug')));
    r.observe(update('other', chunk('ignored')));
    assert.deepEqual(
      r.messages().map((m) => m.text),
      ['first question', '<context>…</context> fix   the\nbug'],
    );
    assert.equal(promptLanded({ text: 'fix the bug' }, r.messages()), true);
    assert.equal(promptLanded({ text: 'ignored' }, r.messages()), false);
    assert.equal(promptLanded({ text: 'first question' }, r.messages()), true);
  });

  it('v2: the message id the agent gave decides, another id does not', () => {
    const r = new ReplayedUserMessages('s1');
    r.observe(update('s1', { sessionUpdate: 'user_message', messageId: 'u-7', content: [{ type: 'text', text: 'reworded by the agent' }] }));
    assert.equal(promptLanded({ text: 'hello', messageId: 'u-7' }, r.messages()), true);
    assert.equal(promptLanded({ text: 'hello', messageId: 'u-8' }, r.messages()), false);
  });

  it('nothing replayed, or an empty prompt, is not evidence of delivery', () => {
    assert.equal(promptLanded({ text: 'hello' }, []), false);
    assert.equal(promptLanded({ text: '  ' }, [{ messageId: null, text: 'anything' }]), false);
  });
});

describe('work on a turn', () => {
  it('is turn content or a request of the agent, not a state update or a response', () => {
    assert.equal(showsTurnWork(update('s', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'x' } })), true);
    assert.equal(showsTurnWork({ jsonrpc: '2.0', id: 3, method: 'session/request_permission', params: {} }), true);
    assert.equal(showsTurnWork(update('s', { sessionUpdate: 'available_commands_update', availableCommands: [] })), false);
    assert.equal(showsTurnWork(update('s', { sessionUpdate: 'session_info_update', title: 't' })), false);
    assert.equal(showsTurnWork({ jsonrpc: '2.0', id: 3, result: {} }), false);
  });
});
