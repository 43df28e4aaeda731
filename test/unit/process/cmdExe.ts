/**
 * Just enough of cmd.exe's and the C runtime's parsing to check a spawn plan without Windows: what a
 * `cmd /d /s /c "…"` line runs, pass by pass, and whether any character in it was interpreted.
 * Rules: ss64.com/nt/syntax-esc.html and the "How does the Windows Command Interpreter parse scripts"
 * answer (phase 1 percent expansion, phase 2 carets, quotes and special characters), and the MSVC
 * argument rules for CommandLineToArgvW.
 */
const SPECIAL = new Set(['&', '|', '<', '>', '(', ')']);

export interface CmdPass {
  readonly text: string;
  /** Characters cmd.exe acted on (an operator, or a variable it expanded). */
  readonly interpreted: string[];
}

/** One cmd.exe parse of a line: `%VAR%` expansion (when `expand`), then carets, quotes and operators. */
export function cmdPass(line: string, env: Record<string, string>, expand: boolean): CmdPass {
  const interpreted: string[] = [];
  let text = line;
  if (expand) {
    text = text.replace(/%([^%\r\n]+)%/g, (whole, name: string) => {
      if (!(name.toUpperCase() in env)) return whole;
      interpreted.push(whole);
      return env[name.toUpperCase()]!;
    });
  }
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '^') {
      out += text[++i] ?? '';
      continue;
    } else if (!quoted && SPECIAL.has(c)) interpreted.push(c);
    out += c;
  }
  return { text: out, interpreted };
}

/** CommandLineToArgvW: how the started program splits its command line. */
export function argv(line: string): string[] {
  const args: string[] = [];
  let cur = '';
  let has = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      if (line[i + n] === '"') {
        cur += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) cur += '"';
        else quoted = !quoted;
        i += n;
      } else {
        cur += '\\'.repeat(n);
        i += n - 1;
      }
      has = true;
    } else if (c === '"') {
      quoted = !quoted;
      has = true;
    } else if (!quoted && (c === ' ' || c === '\t')) {
      if (has) args.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) args.push(cur);
  return args;
}
