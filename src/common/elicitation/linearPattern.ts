/**
 * An agent's form `pattern` run in time linear in the answer's length (a Pike VM over the compiled pattern),
 * whatever the pattern: JavaScript's backtracking engine takes exponential time on patterns such as
 * `^(a+)+$`, and the check runs on the extension host's and the CLI's main thread (issue 39).
 *
 * The pattern is first checked by `RegExp` (ECMA-262 syntax, `u` flag when it allows it, as JSON Schema
 * says); this file only finds its structure. Each single-character atom (a literal, an escape such as `\d`
 * or `\p{L}`, a class `[...]`, `.`) is tested on one character by `RegExp` itself, so character semantics are
 * the language's; groups, alternation, repetition and the anchors `^ $ \b \B` are run by the VM. What needs
 * backtracking by definition (lookaround, back-references) is refused with a reason; so is a pattern whose
 * counted repeats would expand past `MAX_PROGRAM` instructions.
 */

/** Instructions of the compiled program (a bound on memory, and on the time per character). */
const MAX_PROGRAM = 20_000;
/** Characters times instructions one check may cost; past it the answer is refused as too long to check. */
export const MAX_STEPS = 20_000_000;

type Node =
  | { readonly t: 'atom'; readonly test: (ch: string) => boolean }
  | { readonly t: 'assert'; readonly kind: '^' | '$' | 'b' | 'B' }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly options: readonly Node[] }
  | { readonly t: 'repeat'; readonly node: Node; readonly min: number; readonly max: number | null };

type Inst =
  | { readonly op: 'char'; readonly test: (ch: string) => boolean }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { readonly op: 'assert'; readonly kind: '^' | '$' | 'b' | 'B' }
  | { readonly op: 'match' };

export type LinearPattern = { readonly ok: true; readonly program: number; readonly test: (input: string) => boolean } | { readonly ok: false; readonly problem: string };

class Refused extends Error {}

function atomTest(source: string, flags: string): (ch: string) => boolean {
  const re = new RegExp(`^(?:${source})$`, flags);
  const ascii = new Uint8Array(128); // 0 not known yet, 1 no, 2 yes
  return (ch) => {
    const c = ch.length === 1 ? ch.charCodeAt(0) : 128;
    if (c < 128 && ascii[c] !== 0) return ascii[c] === 2;
    const yes = re.test(ch);
    if (c < 128) ascii[c] = yes ? 2 : 1;
    return yes;
  };
}

/** A recursive-descent reader of a pattern `RegExp` already accepted with `flags`. */
function parse(p: string, flags: string): Node {
  const unicode = flags.includes('u');
  let i = 0;
  const atom = (start: number): Node => ({ t: 'atom', test: atomTest(p.slice(start, i), flags) });
  const alt = (): Node => {
    const options = [seq()];
    while (p[i] === '|') {
      i++;
      options.push(seq());
    }
    return options.length === 1 ? (options[0] as Node) : { t: 'alt', options };
  };
  const seq = (): Node => {
    const items: Node[] = [];
    while (i < p.length && p[i] !== '|' && p[i] !== ')') items.push(quantified(term()));
    return { t: 'seq', items };
  };
  const quantified = (node: Node): Node => {
    const m = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})/u.exec(p.slice(i));
    if (!m) return node;
    i += m[0].length;
    if (p[i] === '?') i++; // lazy: the same language, and a yes/no answer does not depend on priority
    const q = m[1];
    const min = q === '+' ? 1 : q !== undefined ? 0 : Number(m[2]);
    const max = q === '?' ? 1 : q !== undefined ? null : m[3] === undefined ? min : m[4] === '' ? null : Number(m[4]);
    return { t: 'repeat', node, min, max };
  };
  const term = (): Node => {
    const start = i;
    const c = p[i++] as string;
    if (c === '^' || c === '$') return { t: 'assert', kind: c };
    if (c === '(') {
      if (p.startsWith('?=', i) || p.startsWith('?!', i) || p.startsWith('?<=', i) || p.startsWith('?<!', i)) {
        throw new Refused('uses a lookaround ((?=, (?!, (?<=, (?<!), which this client does not run: it needs backtracking');
      }
      if (p.startsWith('?:', i)) i += 2;
      else if (p.startsWith('?<', i)) i = p.indexOf('>', i) + 1;
      const inner = alt();
      i++; // ')'
      return inner;
    }
    if (c === '[') {
      for (; i < p.length && p[i] !== ']'; i++) if (p[i] === '\\') i++;
      i++;
      return atom(start);
    }
    if (c === '\\') {
      const e = p[i++] as string;
      if (e === 'b' || e === 'B') return { t: 'assert', kind: e };
      if (/[1-9]/u.test(e) || e === 'k') throw new Refused('uses a back-reference (\\1, \\k<name>), which this client does not run: it needs backtracking');
      if ((e === 'p' || e === 'P' || e === 'u') && p[i] === '{') i = p.indexOf('}', i) + 1;
      else if (e === 'u' && /^[0-9a-fA-F]{4}/u.test(p.slice(i, i + 4))) {
        i += 4;
        // A surrogate pair written as two \u escapes is one character under `u`.
        if (unicode && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/u.test(p.slice(i, i + 6)) && /^[dD][89abAB]/u.test(p.slice(start + 2, start + 4))) i += 6;
      } else if (e === 'x') i += 2;
      else if (e === 'c') i += 1;
      else if (e === '0') while (!unicode && /[0-7]/u.test(p[i] ?? '')) i++;
      else if (unicode && e.charCodeAt(0) >= 0xd800 && e.charCodeAt(0) < 0xdc00) i++;
      return atom(start);
    }
    if (unicode && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) < 0xdc00 && i < p.length) i++; // one code point
    return atom(start);
  };
  const node = alt();
  return node;
}

function compile(root: Node): Inst[] {
  const prog: Inst[] = [];
  const push = (inst: Inst): number => {
    if (prog.length >= MAX_PROGRAM) throw new Refused(`expands to more than ${MAX_PROGRAM} steps (counted repeats multiply)`);
    prog.push(inst);
    return prog.length - 1;
  };
  const emit = (n: Node): void => {
    switch (n.t) {
      case 'atom':
        push({ op: 'char', test: n.test });
        return;
      case 'assert':
        push({ op: 'assert', kind: n.kind });
        return;
      case 'seq':
        for (const item of n.items) emit(item);
        return;
      case 'alt': {
        const jumps: { op: 'jmp'; x: number }[] = [];
        n.options.forEach((o, k) => {
          const last = k === n.options.length - 1;
          const split = last ? null : { op: 'split' as const, x: 0, y: 0 };
          if (split) push(split);
          if (split) split.x = prog.length;
          emit(o);
          if (!last) {
            const j = { op: 'jmp' as const, x: 0 };
            push(j);
            jumps.push(j);
          }
          if (split) split.y = prog.length;
        });
        for (const j of jumps) j.x = prog.length;
        return;
      }
      case 'repeat': {
        for (let k = 0; k < n.min; k++) emit(n.node);
        if (n.max === null) {
          const split = { op: 'split' as const, x: 0, y: 0 };
          const top = push(split);
          split.x = prog.length;
          emit(n.node);
          push({ op: 'jmp', x: top });
          split.y = prog.length;
          return;
        }
        const splits: { op: 'split'; x: number; y: number }[] = [];
        for (let k = n.min; k < n.max; k++) {
          const split = { op: 'split' as const, x: 0, y: 0 };
          push(split);
          split.x = prog.length;
          splits.push(split);
          emit(n.node);
        }
        for (const s of splits) s.y = prog.length;
        return;
      }
    }
  };
  emit(root);
  push({ op: 'match' });
  return prog;
}

const WORD = /[A-Za-z0-9_]/u;
const isWord = (ch: string | undefined): boolean => ch !== undefined && ch.length === 1 && WORD.test(ch);

/** Whether the program matches somewhere in `chars` (unanchored, as JSON Schema's `pattern`): O(chars × program). */
function run(prog: readonly Inst[], chars: readonly string[]): boolean {
  const n = chars.length;
  const mark = new Int32Array(prog.length).fill(-1);
  let clist: number[] = [];
  let nlist: number[] = [];
  const stack: number[] = [];
  /** Adds `pc` and everything reachable from it without reading a character, at position `pos`. */
  const add = (list: number[], pc0: number, pos: number): boolean => {
    stack.push(pc0);
    while (stack.length) {
      const pc = stack.pop() as number;
      if (mark[pc] === pos) continue;
      mark[pc] = pos;
      const inst = prog[pc] as Inst;
      switch (inst.op) {
        case 'jmp':
          stack.push(inst.x);
          break;
        case 'split':
          stack.push(inst.y, inst.x);
          break;
        case 'assert': {
          const ok = inst.kind === '^' ? pos === 0 : inst.kind === '$' ? pos === n : (isWord(chars[pos - 1]) !== isWord(chars[pos])) === (inst.kind === 'b');
          if (ok) stack.push(pc + 1);
          break;
        }
        case 'match':
          stack.length = 0;
          return true;
        case 'char':
          list.push(pc);
      }
    }
    return false;
  };
  for (let pos = 0; pos <= n; pos++) {
    if (add(clist, 0, pos)) return true; // a new attempt starts at every position
    const ch = chars[pos];
    for (const pc of clist) {
      const inst = prog[pc] as Inst;
      if (ch !== undefined && inst.op === 'char' && inst.test(ch) && add(nlist, pc + 1, pos + 1)) return true;
    }
    [clist, nlist] = [nlist, clist];
    nlist.length = 0;
  }
  return false;
}

/** Compiles an agent's pattern for the linear engine, or says why it is not run. */
export function compileLinear(pattern: string): LinearPattern {
  let flags = 'u';
  try {
    new RegExp(pattern, flags);
  } catch {
    flags = '';
    try {
      new RegExp(pattern, flags);
    } catch (e) {
      return { ok: false, problem: `is not a valid regular expression (${e instanceof Error ? e.message : String(e)})` };
    }
  }
  try {
    const prog = compile(parse(pattern, flags));
    const split = (s: string): string[] => (flags === 'u' ? Array.from(s) : s.split(''));
    return { ok: true, program: prog.length, test: (input) => run(prog, split(input)) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, problem: e.message };
    throw e;
  }
}
