/**
 * What a tool call printed, when the agent puts it only in `rawOutput` (Codex sends shell output nowhere
 * else). `rawOutput` is free-form, so only the well-known shapes are recognised; anything else stays
 * behind the card's raw toggle.
 *
 * Shapes seen from real agents:
 * - Codex:    `{ aggregated_output, formatted_output, stdout, stderr, exit_code, ... }`
 * - OpenCode: `{ output, metadata: { exit } }`
 * - MCP-style `{ content: [{ type: "text", text }] }`, a bare array of text blocks, or a plain string.
 */

export interface ToolOutput {
  readonly text: string;
  readonly exitCode: number | null;
}

type Rec = Readonly<Record<string, unknown>>;

const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const int = (x: unknown): number | undefined => (typeof x === 'number' && Number.isInteger(x) ? x : undefined);

/** Text of an array of text content blocks (`{type:"text",text}` or ACP's `{type:"content",content:{...}}`); undefined if not one. */
function textBlocks(x: unknown): string | undefined {
  if (!Array.isArray(x) || x.length === 0) return undefined;
  const parts: string[] = [];
  for (const b of x) {
    const block = isRec(b) && b['type'] === 'content' && isRec(b['content']) ? b['content'] : b;
    if (!isRec(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return undefined;
    parts.push(block['text']);
  }
  return parts.join('\n');
}

/** Joins stdout and stderr the way a terminal would show them one after the other. */
function joinStreams(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return stderr;
  return stdout.endsWith('\n') ? stdout + stderr : `${stdout}\n${stderr}`;
}

/** The output text and exit code in `raw`, or null when it is not a shape we know. */
export function toolOutputOf(raw: unknown): ToolOutput | null {
  if (typeof raw === 'string') return { text: raw, exitCode: null };
  const blocks = textBlocks(raw);
  if (blocks !== undefined) return { text: blocks, exitCode: null };
  if (!isRec(raw)) return null;
  const meta = isRec(raw['metadata']) ? raw['metadata'] : {};
  const exitCode = int(raw['exit_code']) ?? int(raw['exitCode']) ?? int(meta['exit']) ?? int(raw['exit']) ?? null;
  const stdout = str(raw['stdout']);
  const stderr = str(raw['stderr']);
  // Interleaved output first (what the user would have seen), then the model-facing forms.
  const text =
    str(raw['aggregated_output']) ??
    str(raw['formatted_output']) ??
    (stdout !== undefined || stderr !== undefined ? joinStreams(stdout ?? '', stderr ?? '') : undefined) ??
    str(raw['output']) ??
    textBlocks(raw['content']) ??
    str(raw['content']);
  // An exit code alone still says how the command ended (Codex 2.6 streams the text in `_meta` instead).
  if (text === undefined) return exitCode === null ? null : { text: '', exitCode };
  return { text, exitCode };
}

/**
 * The `_meta` keys under which agents stream a shell's output in pieces (`{terminal_id, data}`):
 * `terminal_output` (Zed's Claude Code adapter) and `terminal_output_delta` (Codex, without the client
 * opting in). The store joins the pieces; `terminal_exit` (`{terminal_id, exit_code, signal}`) ends it.
 */
export const META_TERMINAL_OUTPUT_KEYS = ['terminal_output', 'terminal_output_delta'] as const;

/** The output and exit code a tool call's `_meta` carries for its shell, or undefined when it carries none. */
export function metaTerminalOf(meta: Rec | null | undefined): { readonly data: string; readonly exitCode?: number } | undefined {
  if (!meta) return undefined;
  let data = '';
  for (const key of META_TERMINAL_OUTPUT_KEYS) {
    const out = meta[key];
    if (isRec(out) && typeof out['data'] === 'string') data += out['data'];
  }
  const exit = meta['terminal_exit'];
  const code = isRec(exit) ? int(exit['exit_code']) : undefined;
  if (!data && code === undefined) return undefined;
  return code === undefined ? { data } : { data, exitCode: code };
}

/**
 * Whether plain text from a tool is Markdown: agents that mean Markdown fence their output
 * (Claude Code sends "```console\n...\n```"); everything else is shown as printed, line breaks intact.
 */
export function looksLikeMarkdown(text: string): boolean {
  return /^ {0,3}(```|~~~)/m.test(text);
}

/** The command line of an `execute` tool call, from its raw input, so a permission is never approved blind. */
export function commandOf(rawInput: unknown): string | null {
  if (!rawInput || typeof rawInput !== 'object') return null;
  const r = rawInput as Record<string, unknown>;
  const cmd = r['command'] ?? r['cmd'];
  // `{command, args}` (ACP terminal/create style) shows the whole command line.
  const args = Array.isArray(r['args']) && r['args'].every((a) => typeof a === 'string') ? (r['args'] as string[]) : [];
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  if (typeof cmd === 'string') return [cmd, ...args.map(quote)].join(' ');
  if (Array.isArray(cmd) && cmd.every((c) => typeof c === 'string')) return cmd.join(' ');
  return null;
}
