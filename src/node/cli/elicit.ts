/**
 * How `cli run` answers an agent's questions (`elicitation/create`):
 * - with `--elicit-answers FILE`: the file's JSON object, keyed by property name, is checked against the
 *   form the agent asked for; only the keys that are fields of that form are used. A valid answer is
 *   accepted; an invalid one is never sent: the CLI says why and declines. A form none of whose fields
 *   the file answers gets the `--elicit` answer.
 * - otherwise, on a terminal: each field is asked for in turn (re-asked until it is valid); URL mode
 *   shows the URL's origin and prints the URL only after the user agrees.
 * - otherwise: `--elicit decline|cancel` (default decline). URL mode is always declined when not interactive.
 */
import { describeAnswers, fieldError, fromTyped, initialAnswers, validateAnswers, type Field, type FormModel } from '../../common/elicitation/form';
import { checkElicitationUrl } from '../../common/elicitation/url';
import type { CreateElicitationResult, ElicitationValue } from '../../common/protocol/elicitation';
import type { ElicitationAsk, ElicitationHost } from '../acp/handlers';
import { isRecord, ownValue } from '../../common/util/guards';

export type ElicitFallback = 'decline' | 'cancel';

/** One line of input from the user; resolves null when input ended (EOF) or `signal` aborted. */
export type AskLine = (question: string, signal: AbortSignal) => Promise<string | null>;

export interface ElicitPolicy {
  readonly fallback: ElicitFallback;
  /** The parsed `--elicit-answers` object. */
  readonly answers: Readonly<Record<string, unknown>> | undefined;
  /** Present when the user is at a terminal. */
  readonly ask: AskLine | undefined;
}

/** Parses an `--elicit-answers` file's text: a JSON object, or the reason it is not one. */
export function parseAnswersFile(text: string): Record<string, unknown> | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `is not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  return isRecord(v) ? v : 'must hold a JSON object of answers keyed by property name';
}

function fieldPrompt(f: Field): string {
  const lines = [`${f.label}${f.required ? ' (required)' : ''}${f.description ? ` — ${f.description}` : ''}`];
  if (f.kind === 'choice' || f.kind === 'multi') {
    f.choices.forEach((c, i) => lines.push(`  ${i + 1}. ${c.label}${c.description ? ` — ${c.description}` : ''}`));
    lines.push(f.kind === 'multi' ? '  numbers or values, comma separated: ' : '  number or value: ');
  } else if (f.kind === 'boolean') lines.push('  yes or no: ');
  else lines.push(`  ${f.kind === 'text' ? (f.format ?? 'text') : f.kind}: `);
  return lines.join('\n');
}

/** A typed choice by its number or its value. */
function choiceValue(f: Field, typed: string): ElicitationValue | undefined {
  if (f.kind !== 'choice' && f.kind !== 'multi') return fromTyped(f, typed);
  const pick = (s: string): string => {
    const n = Number(s);
    return Number.isInteger(n) && n >= 1 && n <= f.choices.length ? (f.choices[n - 1]?.value ?? s) : s;
  };
  const v = fromTyped(f, typed);
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.map(pick) : typeof v === 'string' ? pick(v) : v;
}

export function cliElicitation(policy: ElicitPolicy, say: (line: string) => void): ElicitationHost {
  const fallback = (why: string): CreateElicitationResult => {
    say(`[elicitation] -> ${policy.fallback} (${why})`);
    return { action: policy.fallback };
  };

  async function askForm(form: FormModel, ask: AskLine, signal: AbortSignal): Promise<CreateElicitationResult> {
    const choice = await ask('[elicitation] answer it? (a)nswer, (d)ecline, (c)ancel: ', signal);
    if (choice === null || /^c/i.test(choice.trim())) return { action: 'cancel' };
    if (!/^a/i.test(choice.trim())) return { action: 'decline' };
    const answers: Record<string, ElicitationValue> = initialAnswers(form);
    for (const f of form.fields) {
      for (;;) {
        const typed = await ask(fieldPrompt(f), signal);
        if (typed === null) return { action: 'cancel' };
        const value = typed.trim() === '' ? ownValue(answers, f.name) : choiceValue(f, typed);
        const err = fieldError(f, value);
        if (err === null) {
          if (value === undefined) delete answers[f.name];
          else answers[f.name] = value;
          break;
        }
        say(`[elicitation] ${f.label} ${err}`);
      }
    }
    const v = validateAnswers(form, answers);
    return v.ok ? { action: 'accept', content: v.content } : { action: 'decline' };
  }

  async function create({ params, form }: ElicitationAsk, signal: AbortSignal): Promise<CreateElicitationResult> {
    const scope = params.sessionId !== undefined ? '' : ' (before any session)';
    say(`[elicitation] ${params.message}${scope}`);
    if (form === null) {
      const url = checkElicitationUrl(params.url ?? '');
      say(`[elicitation] the agent asks you to open a page on ${url.origin ?? '(an invalid URL)'}`);
      if (!url.ok) return fallbackUrl(`the URL is refused: ${url.reason}`);
      if (!policy.ask) return fallbackUrl('URL mode needs an interactive terminal');
      const yes = await policy.ask(`[elicitation] open ${url.origin}? (y/N): `, signal);
      if (yes === null) return { action: 'cancel' };
      if (!/^y/i.test(yes.trim())) return done({ action: 'decline' });
      say(`[elicitation] open this URL in your browser: ${url.url}`);
      return done({ action: 'accept' });
    }
    if (policy.answers) {
      const mine = Object.fromEntries(Object.entries(policy.answers).filter(([k]) => form.fields.some((f) => f.name === k)));
      if (Object.keys(mine).length === 0) return fallback(`--elicit-answers has none of this form's fields: ${form.fields.map((f) => f.name).join(', ')}`);
      const v = validateAnswers(form, mine);
      if (!v.ok) {
        say(`[elicitation] --elicit-answers does not fit the form: ${v.problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ')}`);
        say('[elicitation] -> decline (an invalid answer is never sent)');
        return { action: 'decline' };
      }
      return done({ action: 'accept', content: v.content }, form);
    }
    if (policy.ask) return done(await askForm(form, policy.ask, signal), form);
    return fallback('not interactive; pass --elicit-answers FILE to answer');
  }

  function fallbackUrl(why: string): CreateElicitationResult {
    say(`[elicitation] -> decline (${why})`);
    return { action: 'decline' };
  }

  function done(r: CreateElicitationResult, form?: FormModel): CreateElicitationResult {
    const shown = r.action === 'accept' && form && r.content ? `: ${describeAnswers(form, r.content).join('; ')}` : '';
    say(`[elicitation] -> ${r.action}${shown}`);
    return r;
  }

  return {
    modes: { form: true, url: true },
    create,
    complete: (id) => say(`[elicitation] ${id} complete`),
  };
}
