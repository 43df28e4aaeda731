import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeAnswers, fieldError, fromTyped, initialAnswers, parseForm, validateAnswers, type Field, type FormModel } from '../../../src/common/elicitation/form';
import { checkElicitationUrl } from '../../../src/common/elicitation/url';
import askUserQuestion from '../../fixtures/elicitation/ask-user-question.json';

/** The schema claude-agent-acp 0.101 sends for one AskUserQuestion question (shared with the browser cases). */
const ASK: unknown = askUserQuestion;

function form(schema: unknown): FormModel {
  const r = parseForm(schema);
  assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
  return r.form;
}
const fieldOf = (f: FormModel, name: string): Field => {
  const x = f.fields.find((y) => y.name === name);
  assert.ok(x);
  return x;
};

test('the AskUserQuestion schema reads as a single choice and an optional text field', () => {
  const f = form(ASK);
  assert.deepEqual(
    f.fields.map((x) => [x.name, x.kind, x.label, x.required]),
    [
      ['question_0', 'choice', 'New line', false],
      ['question_0_custom', 'text', 'Other', false],
    ],
  );
  const q = fieldOf(f, 'question_0');
  assert.equal(q.kind === 'choice' && q.choices[1]?.description, 'Append “todo: review again tomorrow”.');
  assert.deepEqual(validateAnswers(f, { question_0: 'Add a TODO line' }), { ok: true, content: { question_0: 'Add a TODO line' } });
});

test('every field kind with its keywords, titles, descriptions and defaults', () => {
  const f = form({
    type: 'object',
    title: 'Setup',
    description: 'Tell me more',
    required: ['name', 'count'],
    properties: {
      name: { type: 'string', title: 'Name', description: 'Your name', minLength: 2, maxLength: 5, pattern: '^[a-z]+$', default: 'bob' },
      mail: { type: 'string', format: 'email' },
      count: { type: 'integer', minimum: 1, maximum: 3, default: 2 },
      ratio: { type: 'number', minimum: 0.5 },
      ok: { type: 'boolean', default: true },
      color: { type: 'string', enum: ['red', 'green'], default: 'green' },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['a'] },
      pets: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'cat', title: 'Cat' },
            { const: 'dog', title: 'Dog' },
          ],
        },
      },
    },
  });
  assert.equal(f.title, 'Setup');
  assert.equal(f.description, 'Tell me more');
  assert.deepEqual(
    f.fields.map((x) => x.kind),
    ['text', 'text', 'integer', 'number', 'boolean', 'choice', 'multi', 'multi'],
  );
  assert.deepEqual(initialAnswers(f), { name: 'bob', count: 2, ok: true, color: 'green', tags: ['a'] });
  assert.deepEqual(validateAnswers(f, initialAnswers(f)), { ok: true, content: { name: 'bob', count: 2, ok: true, color: 'green', tags: ['a'] } });
  const pets = fieldOf(f, 'pets');
  assert.deepEqual(pets.kind === 'multi' && pets.choices.map((c) => c.label), ['Cat', 'Dog']);
});

test('field errors: lengths count code points, pattern, formats, bounds, integers, choices, multi-select', () => {
  const f = form({
    type: 'object',
    required: ['name', 'tags'],
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-zé🙂]+$' },
      mail: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      count: { type: 'integer', minimum: 1, maximum: 3 },
      ratio: { type: 'number', maximum: 1 },
      ok: { type: 'boolean' },
      color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    },
  });
  const err = (name: string, v: Parameters<typeof fieldError>[1]) => fieldError(fieldOf(f, name), v);
  assert.equal(err('name', undefined), 'is required');
  assert.equal(err('name', ''), 'is required');
  assert.equal(err('name', 'a'), 'must be at least 2 characters');
  assert.equal(err('name', 'é🙂'), null, 'two code points, four UTF-16 units');
  assert.equal(err('name', 'abcd'), 'must be at most 3 characters');
  assert.match(err('name', 'AB') ?? '', /pattern/);
  assert.equal(err('mail', 'a@b.co'), null);
  assert.match(err('mail', 'nope') ?? '', /email/);
  assert.equal(err('site', 'https://x.test/a'), null);
  assert.match(err('site', 'not a uri') ?? '', /URI/);
  assert.equal(err('day', '2024-02-29'), null);
  assert.match(err('day', '2023-02-29') ?? '', /date/);
  assert.equal(err('at', '2024-01-02T03:04:05Z'), null);
  assert.match(err('at', '2024-01-02 03:04') ?? '', /time zone/);
  assert.equal(err('count', 2), null);
  assert.equal(err('count', 2.5), 'must be a whole number');
  assert.equal(err('count', 0), 'must be at least 1');
  assert.equal(err('count', 4), 'must be at most 3');
  assert.equal(err('count', '2'), 'must be a number');
  assert.equal(err('ratio', 1.5), 'must be at most 1');
  assert.equal(err('ok', 'yes'), 'must be true or false');
  assert.equal(err('color', 'r'), null);
  assert.match(err('color', 'Red') ?? '', /one of: r/);
  assert.equal(err('tags', []), 'is required');
  assert.match(err('tags', ['a', 'z']) ?? '', /"z"/);
  assert.equal(err('tags', ['a', 'a']), 'lists an option twice');
  assert.equal(err('tags', ['a', 'b', 'c']), 'allows at most 2 selected');
  assert.equal(err('mail', undefined), null, 'optional and unanswered');
});

test('validateAnswers: every problem named, unknown keys refused, empty optional text left out', () => {
  const f = form({ type: 'object', required: ['n'], properties: { n: { type: 'integer', title: 'Count' }, s: { type: 'string' } } });
  const bad = validateAnswers(f, { n: 'x', typo: 1 });
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.problems.map((p) => p.field), ['typo', 'n']);
  assert.match(!bad.ok ? (bad.problems[1]?.message ?? '') : '', /^Count must be a number/);
  assert.deepEqual(validateAnswers(f, { n: 1, s: '' }), { ok: true, content: { n: 1 } });
  assert.equal(validateAnswers(f, [1]).ok, false);
  assert.equal(validateAnswers(f, { n: { deep: 1 } }).ok, false);
});

test('parseForm lists every way a schema leaves the restricted subset', () => {
  const r = parseForm({
    type: 'array',
    required: ['missing'],
    properties: {
      nested: { type: 'object', properties: {} },
      ref: { $ref: '#/x' },
      badEnum: { type: 'string', enum: [1, 2] },
      badOneOf: { type: 'string', oneOf: [{ const: 'a' }] },
      badFormat: { type: 'string', format: 'color' },
      badPattern: { type: 'string', pattern: '(' },
      badLen: { type: 'string', minLength: -1 },
      badInt: { type: 'integer', minimum: 1.5 },
      badItems: { type: 'array', items: { type: 'number' } },
      badDefault: { type: 'string', enum: ['a'], default: 'b' },
      badBool: { type: 'boolean', default: 'yes' },
    },
  });
  assert.equal(r.ok, false);
  const text = !r.ok ? r.problems.join('\n') : '';
  for (const needle of [
    'requestedSchema.type',
    "'missing'",
    '\'nested\' has type "object"',
    "'ref' has type undefined",
    'badEnum',
    'badOneOf',
    'badFormat',
    'badPattern',
    'badLen',
    'badInt',
    'badItems',
    'badDefault',
    'badBool',
  ]) {
    assert.ok(text.includes(needle), `${needle} in:\n${text}`);
  }
  assert.equal(parseForm('x').ok, false);
  assert.equal(parseForm({ properties: [] }).ok, false);
  assert.ok(parseForm({}).ok, 'type defaults to object, properties to none');
});

test('fromTyped: numbers, yes/no, comma lists; unparsable text is kept for fieldError to report', () => {
  const f = form({
    type: 'object',
    properties: { n: { type: 'number' }, b: { type: 'boolean' }, m: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, s: { type: 'string' } },
  });
  assert.equal(fromTyped(fieldOf(f, 'n'), ' 2.5 '), 2.5);
  assert.equal(fromTyped(fieldOf(f, 'n'), 'two'), 'two');
  assert.equal(fromTyped(fieldOf(f, 'b'), 'Yes'), true);
  assert.equal(fromTyped(fieldOf(f, 'b'), 'n'), false);
  assert.deepEqual(fromTyped(fieldOf(f, 'm'), 'a, b'), ['a', 'b']);
  assert.equal(fromTyped(fieldOf(f, 's'), ''), undefined);
  assert.equal(fromTyped(fieldOf(f, 's'), ' x '), ' x ', 'text is kept as typed');
});

test('describeAnswers shows labels, not option values', () => {
  const f = form({ type: 'object', properties: { c: { type: 'string', title: 'Color', oneOf: [{ const: 'r', title: 'Red' }] }, ok: { type: 'boolean', title: 'Sure' } } });
  assert.deepEqual(describeAnswers(f, { c: 'r', ok: false }), ['Color: Red', 'Sure: no']);
});

test('URL mode: https anywhere, http only on loopback, nothing else', () => {
  assert.deepEqual(checkElicitationUrl('https://auth.example.com/x?y=1'), { ok: true, url: 'https://auth.example.com/x?y=1', origin: 'https://auth.example.com' });
  assert.equal(checkElicitationUrl('http://127.0.0.1:8080/cb').ok, true);
  assert.equal(checkElicitationUrl('http://localhost/cb').ok, true);
  assert.equal(checkElicitationUrl('http://[::1]:9/cb').ok, true);
  assert.equal(checkElicitationUrl('http://example.com/').ok, false);
  assert.equal(checkElicitationUrl('http://127.0.0.1.evil.test/').ok, false);
  assert.equal(checkElicitationUrl('javascript:alert(1)').ok, false);
  assert.equal(checkElicitationUrl('file:///etc/passwd').ok, false);
  assert.equal(checkElicitationUrl('https://user:pw@example.com/').ok, false);
  assert.equal(checkElicitationUrl('not a url').ok, false);
});
