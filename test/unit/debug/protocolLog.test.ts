import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeCapture, expandLines, formatProtocolLog, parseCapture } from '../../../src/common/debug/protocolLog';

const rec = (seq: number, t_ms: number, dir: string, msg: unknown) => ({ seq, t_ms, dir, msg });

test('responses pair with requests per direction, even when ids collide', () => {
  const lines = describeCapture([
    rec(1, 0, 'client->agent', { jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's' } }),
    rec(2, 5, 'agent->client', { jsonrpc: '2.0', id: 2, method: 'fs/read_text_file', params: { sessionId: 's', path: '/a' } }),
    rec(3, 7, 'client->agent', { jsonrpc: '2.0', id: 2, result: { content: 'x' } }),
    rec(4, 9, 'agent->client', {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'hi' } } },
    }),
    rec(5, 30, 'agent->client', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn' } }),
    rec(6, 31, 'agent->client', { jsonrpc: '2.0', id: 99, error: { code: -32601, message: 'nope' } }),
  ]);
  assert.deepEqual(
    lines.map((l) => [l.seq, l.kind, l.method, l.pairedWith, l.latencyMs]),
    [
      [1, 'request', 'session/prompt', null, null],
      [2, 'request', 'fs/read_text_file', null, null],
      [3, 'response', 'fs/read_text_file', 2, 2],
      [4, 'notification', 'session/update', null, null],
      [5, 'response', 'session/prompt', 1, 30],
      [6, 'error', '(unknown request)', null, null],
    ],
  );
  assert.equal(lines[3]?.summary, 'agent_message_chunk m1 "hi"');
  assert.equal(lines[4]?.summary, 'stopReason end_turn');
  assert.equal(lines[5]?.summary, 'error -32601: nope');
});

test('formatting can select the lines that built one entry', () => {
  const records = [
    rec(1, 0, 'client->agent', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    rec(2, 3, 'agent->client', { jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } }),
  ];
  const text = formatProtocolLog(records, new Set([2]));
  assert.match(text, /^\[\n  \/\/ #2 \+3ms ← response initialize id=1 \(answers #1 after 3 ms\)/);
  assert.ok(!text.includes('#1 +0ms'));
  assert.ok(text.includes('"protocolVersion": 1'));
});

/** JSON with Comments as VS Code reads it: whole-line comments only appear in these documents. */
const parseJsonc = (text: string): unknown =>
  JSON.parse(
    text
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n'),
  );

test('the log is one valid JSON array (no "End of file expected"), even with line breaks in agent text', () => {
  const records = [
    rec(1, 0, 'client->agent', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    rec(2, 3, 'agent->client', { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'two\nlines\u2028here' } }),
    rec(3, 4, 'agent->client', { jsonrpc: '2.0', method: 'x\ny', params: {} }),
    rec(4, 5, 'note', undefined),
  ];
  const text = `// header\n${formatProtocolLog(records)}`;
  const parsed = parseJsonc(text);
  assert.ok(Array.isArray(parsed));
  assert.equal(parsed.length, 4);
  assert.deepEqual(parsed[1], records[1]!.msg);
  assert.deepEqual(parseJsonc(formatProtocolLog([])), []);
});

test('a recorded real-agent transcript parses and pairs every response', () => {
  const file = path.resolve(__dirname, '../../fixtures/transcripts/codex.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return; // shared material not present beside the checkout
  }
  const records = parseCapture(text);
  assert.ok(records.every((r) => r !== null));
  const lines = describeCapture(records.filter((r) => r !== null));
  const responses = lines.filter((l) => l.kind === 'response' || l.kind === 'error');
  assert.ok(responses.length > 3);
  assert.deepEqual(
    responses.filter((l) => l.pairedWith === null),
    [],
    'every response found its request',
  );
});

test('bad capture lines keep their place as null', () => {
  assert.deepEqual(
    parseCapture('{"dir":"client->agent","msg":{}}\nnot json\n').map((r) => r === null),
    [false, true],
  );
  assert.deepEqual(
    [
      ...expandLines([
        [1, 3],
        [7, 7],
      ]),
    ],
    [1, 2, 3, 7],
  );
});
