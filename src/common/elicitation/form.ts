/**
 * The restricted JSON Schema of a form elicitation (`requestedSchema`), read into a form model, and the
 * user's answers checked against it. One module for the panel, the CLI and the conformance checker, so
 * all three agree on what a valid form and a valid answer are.
 *
 * The subset (ACP v1 `ElicitationSchema`): a flat object whose properties are a string (with `format`,
 * `minLength`, `maxLength`, `pattern`), a number or integer (with `minimum`, `maximum`), a boolean, a
 * single choice (a string with `enum`, or `oneOf` of `{const, title}`), or a multi-select array (`items`
 * of `{type: "string", enum}` or `{anyOf: [{const, title}]}`, with `minItems`, `maxItems`); each may have
 * a `title`, a `description` and a `default`; `required` names properties. Anything else (nested objects,
 * `$ref`, other types, a malformed keyword) is a problem: such a form is not shown half-understood.
 *
 * Pure: no DOM, no Node; the agent's schema is untrusted input, so every field is checked by hand.
 */
import type { ElicitationContent, ElicitationValue } from '../protocol/elicitation';
import { isRecord, ownValue } from '../util/guards';
import { compileLinear, MAX_STEPS, type LinearPattern } from './linearPattern';

const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
type StringFormat = (typeof STRING_FORMATS)[number];

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly description: string | null;
}

interface FieldBase {
  /** The property name: the key of the answer in `content`. */
  readonly name: string;
  /** What the user sees: the `title`, else the property name. */
  readonly label: string;
  readonly description: string | null;
  readonly required: boolean;
}

export type Field =
  | (FieldBase & {
      readonly kind: 'text';
      readonly format: StringFormat | null;
      readonly minLength: number | null;
      readonly maxLength: number | null;
      readonly pattern: string | null;
      readonly default: string | null;
    })
  | (FieldBase & { readonly kind: 'number' | 'integer'; readonly minimum: number | null; readonly maximum: number | null; readonly default: number | null })
  | (FieldBase & { readonly kind: 'boolean'; readonly default: boolean | null })
  | (FieldBase & { readonly kind: 'choice'; readonly choices: readonly Choice[]; readonly default: string | null })
  | (FieldBase & {
      readonly kind: 'multi';
      readonly choices: readonly Choice[];
      readonly minItems: number | null;
      readonly maxItems: number | null;
      readonly default: readonly string[] | null;
    });

export interface FormModel {
  readonly title: string | null;
  readonly description: string | null;
  readonly fields: readonly Field[];
}

export type FormResult = { readonly ok: true; readonly form: FormModel } | { readonly ok: false; readonly problems: readonly string[] };

/** Agent-supplied patterns run against what the user types: a bound keeps a hostile one cheap to reject. */
const MAX_PATTERN = 1000;
const MAX_FIELDS = 100;
const MAX_CHOICES = 1000;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** `null` and absent mean the same ("Omitted and `null` are equivalent"). */
const absent = (v: unknown): boolean => v === undefined || v === null;

function count(v: unknown, what: string, problems: string[]): number | null {
  if (absent(v)) return null;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  problems.push(`${what} must be a non-negative integer`);
  return null;
}

function bound(v: unknown, integer: boolean, what: string, problems: string[]): number | null {
  if (absent(v)) return null;
  if (typeof v === 'number' && Number.isFinite(v) && (!integer || Number.isInteger(v))) return v;
  problems.push(`${what} must be ${integer ? 'an integer' : 'a number'}`);
  return null;
}

/** `oneOf` / `anyOf` option lists: `{const, title, description?}` with string `const` and `title`. */
function titled(v: unknown, where: string, problems: string[]): Choice[] | null {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_CHOICES) {
    problems.push(`${where} must be a list of 1 to ${MAX_CHOICES} options`);
    return null;
  }
  const out: Choice[] = [];
  for (const [i, o] of v.entries()) {
    if (!isRecord(o) || typeof o['const'] !== 'string' || typeof o['title'] !== 'string') {
      problems.push(`${where}[${i}] must be {const: string, title: string}`);
      return null;
    }
    out.push({ value: o['const'], label: o['title'], description: text(o['description']) });
  }
  return out;
}

function plain(v: unknown, where: string, problems: string[]): Choice[] | null {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_CHOICES || !v.every((x) => typeof x === 'string')) {
    problems.push(`${where} must be a list of 1 to ${MAX_CHOICES} strings`);
    return null;
  }
  return (v as string[]).map((s) => ({ value: s, label: s, description: null }));
}

/** Compiles an agent's `pattern` (ECMA-262, unanchored as in JSON Schema) for the linear-time engine. */
function compilePattern(pattern: string): LinearPattern {
  if (pattern.length > MAX_PATTERN) return { ok: false, problem: `is longer than ${MAX_PATTERN} characters` };
  return compileLinear(pattern);
}

function field(name: string, p: unknown, required: boolean, problems: string[]): Field | null {
  const where = `property '${name}'`;
  if (!isRecord(p)) {
    problems.push(`${where} is not an object`);
    return null;
  }
  const before = problems.length;
  const base: FieldBase = { name, label: text(p['title']) ?? name, description: text(p['description']), required };
  const type = p['type'];
  const def = p['default'];
  switch (type) {
    case 'string': {
      if (!absent(p['enum']) || !absent(p['oneOf'])) {
        const choices = !absent(p['oneOf']) ? titled(p['oneOf'], `${where}.oneOf`, problems) : plain(p['enum'], `${where}.enum`, problems);
        if (!choices) return null;
        const d = absent(def) ? null : text(def);
        if (!absent(def) && (d === null || !choices.some((c) => c.value === d))) problems.push(`${where}.default is not one of its options`);
        return problems.length > before ? null : { ...base, kind: 'choice', choices, default: d };
      }
      const format = p['format'];
      if (!absent(format) && !(STRING_FORMATS as readonly unknown[]).includes(format))
        problems.push(`${where}.format ${JSON.stringify(format)} is not one of ${STRING_FORMATS.join(', ')}`);
      const pattern = absent(p['pattern']) ? null : text(p['pattern']);
      const compiled = pattern === null ? null : compilePattern(pattern);
      if (!absent(p['pattern']) && (compiled === null || !compiled.ok)) problems.push(`${where}.pattern ${compiled && !compiled.ok ? compiled.problem : 'must be a string'}`);
      const minLength = count(p['minLength'], `${where}.minLength`, problems);
      const maxLength = count(p['maxLength'], `${where}.maxLength`, problems);
      if (!absent(def) && typeof def !== 'string') problems.push(`${where}.default must be a string`);
      if (problems.length > before) return null;
      return { ...base, kind: 'text', format: (format ?? null) as StringFormat | null, minLength, maxLength, pattern, default: text(def) };
    }
    case 'number':
    case 'integer': {
      const integer = type === 'integer';
      const minimum = bound(p['minimum'], integer, `${where}.minimum`, problems);
      const maximum = bound(p['maximum'], integer, `${where}.maximum`, problems);
      const d = bound(def, integer, `${where}.default`, problems);
      return problems.length > before ? null : { ...base, kind: type, minimum, maximum, default: d };
    }
    case 'boolean':
      if (!absent(def) && typeof def !== 'boolean') problems.push(`${where}.default must be a boolean`);
      return problems.length > before ? null : { ...base, kind: 'boolean', default: typeof def === 'boolean' ? def : null };
    case 'array': {
      const items = p['items'];
      let choices: Choice[] | null = null;
      if (isRecord(items) && items['type'] === 'string') choices = plain(items['enum'], `${where}.items.enum`, problems);
      else if (isRecord(items) && items['type'] === undefined && 'anyOf' in items) choices = titled(items['anyOf'], `${where}.items.anyOf`, problems);
      else problems.push(`${where}.items must be {type: "string", enum} or {anyOf: [{const, title}]}`);
      const minItems = count(p['minItems'], `${where}.minItems`, problems);
      const maxItems = count(p['maxItems'], `${where}.maxItems`, problems);
      let d: string[] | null = null;
      if (!absent(def)) {
        if (Array.isArray(def) && def.every((x) => typeof x === 'string' && (choices ?? []).some((c) => c.value === x))) d = def as string[];
        else problems.push(`${where}.default must be a list of its options`);
      }
      if (!choices || problems.length > before) return null;
      return { ...base, kind: 'multi', choices, minItems, maxItems, default: d };
    }
    default:
      problems.push(`${where} has type ${JSON.stringify(type)}; a form field is a string, number, integer, boolean or array of options`);
      return null;
  }
}

/** Reads a `requestedSchema`. Every problem is listed (not just the first), for the checker's report. */
export function parseForm(schema: unknown): FormResult {
  const problems: string[] = [];
  if (!isRecord(schema)) return { ok: false, problems: ['requestedSchema is not an object'] };
  if (!absent(schema['type']) && schema['type'] !== 'object') problems.push(`requestedSchema.type is ${JSON.stringify(schema['type'])}, not "object"`);
  const props = absent(schema['properties']) ? {} : schema['properties'];
  if (!isRecord(props)) return { ok: false, problems: [...problems, 'requestedSchema.properties is not an object'] };
  const names = Object.keys(props);
  if (names.length > MAX_FIELDS) return { ok: false, problems: [...problems, `requestedSchema has ${names.length} properties; at most ${MAX_FIELDS} are shown`] };
  const req = schema['required'];
  let required: string[] = [];
  if (!absent(req)) {
    if (Array.isArray(req) && req.every((r) => typeof r === 'string')) required = req as string[];
    else problems.push('requestedSchema.required must be a list of property names');
  }
  for (const r of required) if (!names.includes(r)) problems.push(`requestedSchema.required names '${r}', which is not a property`);
  const fields: Field[] = [];
  for (const name of names) {
    // JSON tools (zod's records among them) drop or misread this key: an answer to it could not be sent as given.
    if (name === '__proto__') {
      problems.push("property '__proto__' cannot be a form field (JSON tools drop that key, so its answer could not be sent as typed)");
      continue;
    }
    const f = field(name, ownValue(props, name), required.includes(name), problems);
    if (f) fields.push(f);
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, form: { title: text(schema['title']), description: text(schema['description']), fields } };
}

// ---------------------------------------------------------------- answers

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/u;

function realDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

function formatError(format: StringFormat, s: string): string | null {
  switch (format) {
    case 'email':
      return EMAIL.test(s) ? null : 'must be an email address';
    case 'uri':
      try {
        new URL(s);
        return null;
      } catch {
        return 'must be a URI (such as https://example.com)';
      }
    case 'date':
      return realDate(s) ? null : 'must be a date (YYYY-MM-DD)';
    case 'date-time':
      return DATE_TIME.test(s) && realDate(s.slice(0, 10)) && !Number.isNaN(Date.parse(s)) ? null : 'must be a date and time (ISO 8601, with a time zone)';
  }
}

const codePoints = (s: string): number => [...s].length;

/** Why `value` is not a valid answer for `f` (a present value; `undefined` means "not answered"). */
export function fieldError(f: Field, value: ElicitationValue | undefined): string | null {
  if (value === undefined || (value === '' && f.kind === 'text') || (Array.isArray(value) && value.length === 0 && f.kind === 'multi' && f.required)) {
    return f.required ? 'is required' : null;
  }
  switch (f.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      const n = codePoints(value);
      if (f.minLength !== null && n < f.minLength) return `must be at least ${f.minLength} characters`;
      if (f.maxLength !== null && n > f.maxLength) return `must be at most ${f.maxLength} characters`;
      if (f.format) {
        const e = formatError(f.format, value);
        if (e) return e;
      }
      if (f.pattern !== null) {
        const re = compilePattern(f.pattern);
        if (re.ok && n * re.program > MAX_STEPS) return 'is too long to check against the pattern';
        if (!re.ok || !re.test(value)) return `must match the pattern ${f.pattern}`;
      }
      return null;
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (f.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (f.minimum !== null && value < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== null && value > f.maximum) return `must be at most ${f.maximum}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'choice':
      return typeof value === 'string' && f.choices.some((c) => c.value === value) ? null : `must be one of: ${f.choices.map((c) => c.value).join(', ')}`;
    case 'multi': {
      if (!Array.isArray(value)) return 'must be a list of options';
      const bad = value.find((v) => !f.choices.some((c) => c.value === v));
      if (bad !== undefined) return `has ${JSON.stringify(bad)}, which is not one of its options`;
      if (new Set(value).size !== value.length) return 'lists an option twice';
      if (f.minItems !== null && value.length < f.minItems) return `needs at least ${f.minItems} selected`;
      if (f.maxItems !== null && value.length > f.maxItems) return `allows at most ${f.maxItems} selected`;
      return null;
    }
  }
}

interface FieldProblem {
  /** The property, or null for a problem with the answers as a whole. */
  readonly field: string | null;
  readonly message: string;
}

export type AnswerResult = { readonly ok: true; readonly content: ElicitationContent } | { readonly ok: false; readonly problems: readonly FieldProblem[] };

function isValue(v: unknown): v is ElicitationValue {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
}

/**
 * Checks answers (keyed by property name) against the form: the content to send, or every problem.
 * Unanswered optional fields and empty optional text are left out; a key that is not a field is a problem
 * (a typo in an answers file must not silently send less than the user meant).
 */
export function validateAnswers(form: FormModel, answers: unknown): AnswerResult {
  if (!isRecord(answers)) return { ok: false, problems: [{ field: null, message: 'the answers must be a JSON object keyed by property name' }] };
  const problems: FieldProblem[] = [];
  for (const k of Object.keys(answers))
    if (!form.fields.some((f) => f.name === k))
      problems.push({ field: k, message: `is not a field of this form (fields: ${form.fields.map((f) => f.name).join(', ') || 'none'})` });
  const content: Record<string, ElicitationValue> = {};
  for (const f of form.fields) {
    const raw = ownValue(answers, f.name);
    if (raw !== undefined && raw !== null && !isValue(raw)) {
      problems.push({ field: f.name, message: 'must be a string, number, boolean or list of strings' });
      continue;
    }
    const value = raw ?? undefined;
    const err = fieldError(f, value);
    if (err) problems.push({ field: f.name, message: `${f.label} ${err}` });
    else if (value !== undefined && !(value === '' && f.kind === 'text')) content[f.name] = value;
  }
  return problems.length ? { ok: false, problems } : { ok: true, content };
}

/** The values a fresh form starts with: each field's valid `default`, else nothing. */
export function initialAnswers(form: FormModel): Record<string, ElicitationValue> {
  const out: Record<string, ElicitationValue> = {};
  for (const f of form.fields) {
    if (f.default === null) continue;
    const d = f.kind === 'multi' ? [...f.default] : f.default;
    if (fieldError(f, d) === null) out[f.name] = d;
  }
  return out;
}

/**
 * What the user typed (a text box, a terminal line) as the field's value: numbers parsed, booleans from
 * yes/no, a multi-select from a comma-separated list. `undefined` for empty input; the string itself when
 * it does not parse, so `fieldError` reports it.
 */
export function fromTyped(f: Field, typed: string): ElicitationValue | undefined {
  const s = f.kind === 'text' ? typed : typed.trim();
  if (s === '') return undefined;
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(s);
      return Number.isFinite(n) ? n : s;
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/iu.test(s)) return true;
      if (/^(n|no|false|0)$/iu.test(s)) return false;
      return s;
    case 'multi':
      return s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');
    default:
      return s;
  }
}

/** One line per field for a text rendering of an answer ("Label: value"), in form order. */
export function describeAnswers(form: FormModel, content: ElicitationContent): string[] {
  return form.fields.flatMap((f) => {
    const v = ownValue(content, f.name);
    if (v === undefined) return [];
    const label = (x: string) => (f.kind === 'choice' || f.kind === 'multi' ? (f.choices.find((c) => c.value === x)?.label ?? x) : x);
    const shown = Array.isArray(v) ? v.map(label).join(', ') : typeof v === 'string' ? label(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
    return [`${f.label}: ${shown}`];
  });
}
