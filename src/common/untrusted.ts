/**
 * Agent text shown outside the webview: by VS Code (notifications, quick picks, the status bar) and by
 * the CLI on a terminal.
 *
 * VS Code: Notifications render `[label](command:id?args)` as a
 * link that runs any command with any arguments; quick picks and the status bar render `$(icon)`; and
 * control or bidi characters can make a line say something else than it holds. Everything an agent (or
 * a workspace setting) controls passes through one of these before it reaches such a surface.
 *
 * VS Code's notification link syntax is `[text](target)` with `](` adjacent (its parser honours no
 * backslash escapes), so a space between `]` and `(` is enough, and visible: the text stays readable.
 */

/** C0 and C1 controls, DEL, and the bidi embedding/override/isolate marks (text that reads backwards). */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BREAKS = /[\t\n\r]+/g;

/** One line of plain text: breaks become spaces, controls and bidi marks go, at most `max` characters. */
export function plainLine(s: string, max = 300): string {
  const flat = s.replace(BREAKS, ' ').replace(INVISIBLE, '');
  if (flat.length <= max) return flat;
  // Never cut a surrogate pair in half.
  const cut = /[\ud800-\udbff]/.test(flat.charAt(max - 2)) ? max - 2 : max - 1;
  return `${flat.slice(0, cut)}…`;
}

/** Breaks `[text](target)` so no notification can render it as a link. */
export function noLinks(s: string): string {
  return s.replace(/\](?=\()/g, '] ');
}

/** VS Code's own `escapeIcons`: `$(name)` shows as written instead of as an icon. */
export function escapeIcons(s: string): string {
  return s.replace(/(\\)?\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, (m: string, escaped: string | undefined) => (escaped ? m : `\\${m}`));
}

/** For `showInformationMessage` / `showWarningMessage` / `showErrorMessage` (message and detail). */
export function noticeText(s: string, max?: number): string {
  return noLinks(plainLine(s, max));
}

/** For quick-pick items and the status bar (they render `$(icon)` but no links). */
export function labelText(s: string, max?: number): string {
  return escapeIcons(noLinks(plainLine(s, max)));
}

/** For text a user must read whole, such as a path in a consent dialog: no length cut, breaks shown as `\n`. */
export function noticeDetail(s: string): string {
  const visible = s.replace(/[\t\n\r]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
  return noLinks(visible.replace(INVISIBLE, ''));
}

/** Several `noticeDetail` lines, one per argument: a dialog's detail whose line breaks are the extension's own. */
export function noticeLines(...lines: string[]): string {
  return lines.map(noticeDetail).join('\n');
}

/**
 * For a terminal: every control character but `\n` and `\t` is shown as its Unicode control picture
 * (ESC as ␛, CR as ␍), C1 controls and bidi marks as `\u` escapes, so agent text can never move the
 * cursor, rewrite a line the user is reading, or send OSC sequences (clipboard, title, hyperlinks).
 * Chunks can be filtered separately: every control is replaced on its own, so a sequence split across
 * two writes is still inert.
 */
export function terminalSafe(s: string): string {
  // Most text has none of them: one scan, and the string itself back (the CLI runs this on every chunk).
  if (!TERMINAL_UNSAFE.test(s)) return s;
  return s
    .replace(/\r\n/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)))
    .replace(/[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every character `terminalSafe` changes (CR is among the controls, so a CRLF is found too). */
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * JSON text with the characters a terminal could act on escaped (JSON.stringify leaves C1 controls and
 * bidi marks raw); still the same JSON value.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text as a Markdown hover (VS Code renders a plain-string hover as Markdown): every Markdown punctuation
 * character escaped, so an agent's text shows as written and makes no link, image or heading.
 */
export function markdownText(s: string): string {
  return plainLine(s, 500).replace(/[\\`*_{}[\]()#+\-.!|<>~:]/g, '\\$&');
}

/** Agent text as a fenced code block whose fence is longer than any backtick run inside, so it cannot close early. */
export function markdownCode(code: string, language: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language.replace(/[^\w+-]/g, '')}\n${code}\n${fence}`;
}
