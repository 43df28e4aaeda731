import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseForm } from '../../../src/common/elicitation/form';
import type { CreateElicitationParams } from '../../../src/common/protocol/elicitation';
import { cliElicitation, parseAnswersFile, type AskLine, type ElicitPolicy } from '../../../src/node/cli/elicit';
import { parseRunArgs } from '../../../src/node/cli/run';

const dir = mkdtempSync(path.join(tmpdir(), 'cli-elicit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = {
  type: 'object',
  required: ['line'],
  properties: {
    line: {
      type: 'string',
      title: 'New line',
      oneOf: [
        { const: 'Add a DONE line', title: 'Done' },
        { const: 'Add a TODO line', title: 'Todo' },
      ],
    },
    count: { type: 'integer', title: 'Count', minimum: 1 },
  },
};
const formAsk = (schema: unknown = SCHEMA) => {
  const f = parseForm(schema);
  assert.ok(f.ok);
  const params: CreateElicitationParams = { sessionId: 's', mode: 'form', message: 'Which line?', requestedSchema: schema as Record<string, unknown> };
  return { params, form: f.form, rpcId: 0 };
};
const urlAsk = (url: string) => ({ params: { sessionId: 's', mode: 'url', message: 'Sign in', elicitationId: 'e', url } as CreateElicitationParams, form: null, rpcId: 0 });
const signal = new AbortController().signal;

function host(policy: Partial<ElicitPolicy>) {
  const lines: string[] = [];
  const h = cliElicitation({ fallback: 'decline', answers: undefined, ask: undefined, ...policy }, (l) => lines.push(l));
  return { h, lines };
}

/** A terminal that types the given lines in order (null: end of input). */
function typing(...typed: (string | null)[]): AskLine {
  return async () => (typed.length ? (typed.shift() ?? null) : null);
}

describe('cli run: elicitation', () => {
  it('parses --elicit and --elicit-answers, refusing bad values and files', () => {
    const good = path.join(dir, 'a.json');
    writeFileSync(good, '{"line":"Add a TODO line"}');
    const o = parseRunArgs(['--elicit', 'cancel', '--elicit-answers', good, '--prompt', 'x', '--', 'agent']);
    assert.ok(typeof o !== 'string');
    assert.equal(o.elicit, 'cancel');
    assert.deepEqual(o.elicitAnswers, { line: 'Add a TODO line' });
    const d = parseRunArgs(['--prompt', 'x', '--', 'agent']);
    assert.ok(typeof d !== 'string');
    assert.equal(d.elicit, 'decline', 'decline is the default');
    assert.match(String(parseRunArgs(['--elicit', 'accept', '--prompt', 'x', '--', 'a'])), /decline or cancel/);
    assert.match(String(parseRunArgs(['--elicit-answers', path.join(dir, 'missing.json'), '--prompt', 'x', '--', 'a'])), /ENOENT|no such file/);
    const arr = path.join(dir, 'arr.json');
    writeFileSync(arr, '[1]');
    assert.match(String(parseRunArgs(['--elicit-answers', arr, '--prompt', 'x', '--', 'a'])), /JSON object/);
    assert.match(parseAnswersFile('{') as string, /is not JSON/);
  });

  it('answers a form from the file: only its own fields, validated, and says what it sent', async () => {
    const { h, lines } = host({ answers: { line: 'Add a TODO line', other_question: 'x' } });
    assert.deepEqual(await h.create(formAsk(), signal), { action: 'accept', content: { line: 'Add a TODO line' } });
    assert.deepEqual(lines, ['[elicitation] Which line?', '[elicitation] -> accept: New line: Todo']);
  });

  it('never sends an invalid answer from the file: it says why and declines, whatever --elicit says', async () => {
    const { h, lines } = host({ fallback: 'cancel', answers: { line: 'Add a TODO line', count: 0 } });
    assert.deepEqual(await h.create(formAsk(), signal), { action: 'decline' });
    assert.ok(
      lines.some((l) => /does not fit the form: count: Count must be at least 1/.test(l)),
      lines.join('\n'),
    );
  });

  it('without answers for the form and no terminal: the --elicit answer, with the reason', async () => {
    const a = host({ fallback: 'cancel', answers: { unrelated: 1 } });
    assert.deepEqual(await a.h.create(formAsk(), signal), { action: 'cancel' });
    assert.match(a.lines.at(-1) ?? '', /none of this form's fields: line, count/);
    const b = host({});
    assert.deepEqual(await b.h.create(formAsk(), signal), { action: 'decline' });
    assert.match(b.lines.at(-1) ?? '', /not interactive/);
  });

  it('URL mode: always declined when not interactive; refused URLs declined; opened only after a yes', async () => {
    const a = host({ fallback: 'cancel', answers: {} });
    assert.deepEqual(await a.h.create(urlAsk('https://auth.example.com/x'), signal), { action: 'decline' });
    assert.ok(a.lines.some((l) => l.includes('https://auth.example.com')));
    const b = host({ ask: typing('y') });
    assert.deepEqual(await b.h.create(urlAsk('http://evil.example.com/'), signal), { action: 'decline' });
    assert.match(b.lines.at(-1) ?? '', /loopback/);
    const c = host({ ask: typing('n') });
    assert.deepEqual(await c.h.create(urlAsk('https://auth.example.com/x?a=1'), signal), { action: 'decline' });
    assert.ok(!c.lines.some((l) => l.includes('?a=1')), 'the full URL is not shown before the user agrees');
    const d = host({ ask: typing('yes') });
    assert.deepEqual(await d.h.create(urlAsk('https://auth.example.com/x?a=1'), signal), { action: 'accept' });
    assert.ok(d.lines.some((l) => l.includes('https://auth.example.com/x?a=1')));
  });

  it('interactive: a choice by number, re-asks an invalid field, decline and cancel, end of input cancels', async () => {
    const a = host({ ask: typing('a', '2', 'zero', '0', '3') });
    assert.deepEqual(await a.h.create(formAsk(), signal), { action: 'accept', content: { line: 'Add a TODO line', count: 3 } });
    assert.ok(a.lines.includes('[elicitation] Count must be a number'));
    assert.ok(a.lines.includes('[elicitation] Count must be at least 1'));
    assert.deepEqual(await host({ ask: typing('d') }).h.create(formAsk(), signal), { action: 'decline' });
    assert.deepEqual(await host({ ask: typing('c') }).h.create(formAsk(), signal), { action: 'cancel' });
    assert.deepEqual(await host({ ask: typing('a', null) }).h.create(formAsk(), signal), { action: 'cancel' });
  });
});
