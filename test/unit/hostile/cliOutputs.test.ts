/**
 * Issue 39 class 8: the command-line tools' output. export-v1 escapes what a terminal could act on (as
 * `reduce` does), summarizes its problems past a bound, and refuses an --out that names a directory with a
 * clear error and no temporary file; check --junit writes only characters XML 1.0 allows, and SARIF stays
 * well-formed JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toJUnit, toSarif, type Finding } from '../../../src/common/conformance';
import { runCli } from '../helpers/cli';

const run = (...args: string[]) => runCli(args, { maxBuffer: 64 * 1024 * 1024 });
const dir = mkdtempSync(path.join(tmpdir(), 'cli-outputs-'));
const line = (d: string, msg: object) => JSON.stringify({ dir: d, msg: { jsonrpc: '2.0', ...msg } });
const v2Start = [line('client->agent', { id: 0, method: 'initialize', params: { protocolVersion: 2 } }), line('agent->client', { id: 0, result: { protocolVersion: 2 } })];
const text = (t: string) =>
  line('agent->client', {
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: t } } },
  });
const write = (name: string, lines: string[]) => {
  const f = path.join(dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
};
/** What a terminal acts on: C0 (but \n), DEL, C1, bidi controls, line/paragraph separators. */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test('export-v1 to stdout escapes C1 controls, bidi marks and separators, and is still the same JSON', () => {
  const evil = 'a\u009b2J\u202egnp.exe\u2028b\u001b[31m';
  const r = run('export-v1', write('evil.jsonl', [...v2Start, text(evil)]));
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, ACTIVE);
  const last = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as { msg: { params: { update: { content: { text: string } } } } };
  assert.equal(last.msg.params.update.content.text, evil);
});

test('export-v1 summarizes problems past a bound', () => {
  const r = run('export-v1', write('many.jsonl', [...v2Start, ...Array.from({ length: 5000 }, () => '{not json')]));
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.ok(lines.length < 40, `${lines.length} lines`);
  assert.match(r.stderr, /5000 problems/);
  assert.match(r.stderr, /and 4980 more/);
});

test('export-v1 --out naming a directory: a clear error, exit 2, no temporary file, no stack', () => {
  const f = write('ok.jsonl', [...v2Start, text('hi')]);
  const target = path.join(dir, 'a-directory');
  mkdirSync(target);
  const before = readdirSync(dir).sort();
  const r = run('export-v1', '--out', target, f);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--out .*is a directory/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.deepEqual(readdirSync(dir).sort(), before);
});

/** XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
function assertXmlChars(xml: string): void {
  for (const ch of xml) {
    const c = ch.codePointAt(0) as number;
    const ok = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
    assert.ok(ok, `XML 1.0 forbids U+${c.toString(16).padStart(4, '0')}`);
  }
}

test('check --junit: only XML 1.0 characters whatever the agent wrote; SARIF is well-formed JSON', () => {
  const hostile = 'x\u0000\u0001\u001b\u0085\ud800 lone \udfff\ufffe\uffff\u{1F600} ok <&>';
  const findings: Finding[] = [{ rule: 'unknown-method', severity: 'error', line: 1, message: hostile }];
  const target = { subject: `agent ${hostile}`, captureUri: 'c.jsonl', lines: 1 };
  const xml = toJUnit(findings, target);
  assertXmlChars(xml);
  assert.match(xml, /😀 ok &#60;&#38;&#62;/);
  const sarif = toSarif(findings, target, { name: 't', version: '1', informationUri: 'https://example.org' });
  assert.doesNotMatch(sarif, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/, 'no lone surrogates in the SARIF text');
  assert.doesNotThrow(() => JSON.parse(sarif));
});
