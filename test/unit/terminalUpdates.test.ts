// ACP v2 agent-owned terminals: terminal_update / terminal_output_chunk decoded into the panel's
// append / replace / exit terminal events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalUpdateDecoder } from '../../src/common/protocol/terminalUpdates';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
const params = (update: Record<string, unknown>) => ({ sessionId: 's', update });

test('chunks append, a snapshot replaces, exitStatus marks the exit; other updates are not terminal events', () => {
  const d = new TerminalUpdateDecoder();
  assert.deepEqual(d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', command: 'ls', cwd: '/w' })), {
    sessionId: 's',
    terminalId: 't',
    text: '',
    replace: false,
  });
  assert.deepEqual(d.decode(params({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64('a\n') })), {
    sessionId: 's',
    terminalId: 't',
    text: 'a\n',
    replace: false,
  });
  assert.deepEqual(d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', output: { data: b64('whole\n') } })), {
    sessionId: 's',
    terminalId: 't',
    text: 'whole\n',
    replace: true,
  });
  assert.deepEqual(d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', exitStatus: { exitCode: 2, signal: null } })), {
    sessionId: 's',
    terminalId: 't',
    text: '',
    replace: false,
    exit: { exitCode: 2, signal: null },
  });
  assert.deepEqual(
    d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', exitStatus: {} })),
    { sessionId: 's', terminalId: 't', text: '', replace: false, exit: { exitCode: null, signal: null } },
    'an empty exitStatus still means exited',
  );
  assert.deepEqual(
    d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', output: null })),
    { sessionId: 's', terminalId: 't', text: '', replace: true },
    'null clears the output',
  );
  assert.equal(d.decode(params({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'x' } })), null);
  assert.equal(d.decode({ update: { sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: 'eA==' } }), null, 'no sessionId: not a valid update');
});

test('a UTF-8 character split across two chunks is decoded whole; bad base64 says so instead of vanishing', () => {
  const d = new TerminalUpdateDecoder();
  const bytes = Buffer.from('é✓');
  assert.equal(d.decode(params({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.subarray(0, 1)) }))?.text, '');
  assert.equal(d.decode(params({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.subarray(1)) }))?.text, 'é✓');
  assert.equal(d.decode(params({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: '!!not base64' }))?.text, '[undecodable terminal output]\n');
});

test('a malformed optional field is treated as omitted, the rest of the update is kept', () => {
  const d = new TerminalUpdateDecoder();
  assert.deepEqual(d.decode(params({ sessionUpdate: 'terminal_update', terminalId: 't', output: 5, exitStatus: { exitCode: 'x' } })), {
    sessionId: 's',
    terminalId: 't',
    text: '',
    replace: false,
    exit: { exitCode: null, signal: null },
  });
});
