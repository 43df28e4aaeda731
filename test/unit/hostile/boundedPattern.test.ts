/**
 * Issue 39 class 1: an agent's `pattern` is run against the user's answer. Whatever the pattern and the
 * input, checking it must be bounded: a catastrophic pattern answers at once (a linear-time engine), a
 * feature that needs backtracking (lookaround, back-references) is refused with a clear problem.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldError, parseForm, type Field } from '../../../src/common/elicitation/form';
import { compileLinear } from '../../../src/common/elicitation/linearPattern';

function textField(pattern: string): Field {
  const r = parseForm({ type: 'object', properties: { a: { type: 'string', pattern } } });
  assert.ok(r.ok, r.ok ? '' : r.problems.join('; '));
  const f = r.form.fields[0];
  assert.ok(f);
  return f;
}

// Without the linear engine these never return: the test's own timeout is what fails.
test('catastrophic patterns are checked at once (no backtracking)', { timeout: 20_000 }, () => {
  const evil = 'a'.repeat(5000) + '!';
  for (const p of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '(a*)*b', '^(\\w+\\s?)*$', 'a*a*a*a*a*a*a*b', '^(.*a){12}$']) {
    assert.match(fieldError(textField(p), evil) ?? '', /must match the pattern/, p);
  }
  assert.equal(fieldError(textField('^(a+)+$'), 'a'.repeat(5000)), null);
});

test('features that need backtracking are refused with a clear problem, not run', () => {
  for (const p of ['(a)\\1', '(?=a)a', '(?!b)a', '(?<=a)b', '(?<!a)b', '(?<n>a)\\k<n>']) {
    const r = parseForm({ type: 'object', properties: { a: { type: 'string', pattern: p } } });
    assert.equal(r.ok, false, p);
    if (!r.ok) assert.match(r.problems.join(';'), /pattern .*(look-?around|back-?reference)/i, p);
  }
  // Expansion is bounded too: nested counted repeats cannot build a huge program.
  assert.equal(compileLinear('((a{1000}){1000}){1000}').ok, false);
});

function nativeOf(p: string): RegExp {
  try {
    return new RegExp(p, 'u');
  } catch {
    return new RegExp(p);
  }
}

test('the linear engine agrees with RegExp on ordinary patterns', () => {
  const cases: [string, string[]][] = [
    ['^[a-z]+$', ['abc', 'Abc', '', 'a1']],
    ['^\\d{3}-\\d{4}$', ['555-1234', '5555-123', '555-12345']],
    ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', ['a@b.io', 'a@b.c', 'a b@c.de', 'x@y.zz']],
    ['colou?r', ['color', 'the colour red', 'colr']],
    ['^(foo|bar)+baz$', ['foobarbaz', 'baz', 'foofoo']],
    ['\\bcat\\b', ['a cat!', 'concat', 'cat']],
    ['^[\\w.-]+$', ['a.b-c_d', 'a b']],
    ['^.{2,4}$', ['a', 'ab', 'abcd', 'abcde', 'a\nb']],
    ['^(?:x|y){0,2}z?$', ['', 'xy', 'xyz', 'xyx']],
    ['^\\u00e9t\\u00e9$', ['été', 'ete']],
    ['^[\\]\\-a]+$', [']-a', 'b']],
    ['^\\p{L}+$', ['héllo', 'h1']],
    ['^😀+$', ['😀😀', '😀a']],
    ['a{,2}', ['a{,2}', 'aa']],
  ];
  for (const [p, inputs] of cases) {
    const c = compileLinear(p);
    assert.ok(c.ok, `${p}: ${c.ok ? '' : c.problem}`);
    if (!c.ok) continue;
    const native = nativeOf(p);
    for (const s of inputs) assert.equal(c.test(s), native.test(s), `${p} on ${JSON.stringify(s)}`);
  }
});

test('the linear engine agrees with RegExp on random small patterns and inputs (seeded)', () => {
  let seed = 39;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const pieces = ['a', 'b', '.', '[ab]', '[^a]', '\\w', '\\d', '\\b', '^', '$', '(', ')', '(?:', '|', '*', '+', '?', '{1,2}', '{2}', '*?'];
  let compared = 0;
  for (let k = 0; k < 3000; k++) {
    const p = Array.from({ length: 1 + rnd(8) }, () => pieces[rnd(pieces.length)]).join('');
    let native: RegExp;
    try {
      native = nativeOf(p);
    } catch {
      continue;
    }
    const c = compileLinear(p);
    assert.ok(c.ok, p);
    if (!c.ok) continue;
    for (let j = 0; j < 4; j++) {
      const s = Array.from({ length: rnd(6) }, () => 'ab1 '[rnd(4)]).join('');
      assert.equal(c.test(s), native.test(s), `${p} on ${JSON.stringify(s)}`);
      compared++;
    }
  }
  assert.ok(compared > 1000);
});
