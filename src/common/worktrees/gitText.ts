/**
 * Names and git output for worktree chats, as pure text work (tested without git): the branch a chat's
 * worktree gets, the folder name it gets, the files of a `--numstat -z` listing, and the files a failed
 * `git apply --check` names.
 */

/** The prefix of every branch we make, so a user sees at once which branches are chats'. */
export const BRANCH_PREFIX = 'acp/';

/**
 * A branch name from a chat's title: lowercase ASCII words joined by `-`, at most 40 characters (`chat`
 * when nothing is left), under `acp/`, with `-2`, `-3`… when the name is taken. Git's own rules for names
 * (`git check-ref-format`) are met by construction: no `..`, no leading `-` or `.`, no `.lock`, no control
 * or special characters.
 */
export function branchNameFor(title: string, taken: (name: string) => boolean): string {
  const slug =
    title
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'chat';
  const base = `${BRANCH_PREFIX}${slug}`;
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
}

/** A folder name for a chat's worktree: short (Windows' 260-character paths), safe on every file system. */
export function worktreeFolderName(chatId: string): string {
  const safe = chatId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 24);
  return safe === '' ? 'chat' : safe;
}

/** One file of a diff with its line counts (null for a binary file). */
export interface FileStat {
  readonly path: string;
  /** The path before a rename, when the file was renamed. */
  readonly from?: string;
  readonly added: number | null;
  readonly removed: number | null;
}

/** `git diff --numstat -z` output: `A\tR\tpath\0`, or `A\tR\t\0from\0to\0` for a rename; `-` counts for binary. */
export function parseNumstat(out: string): FileStat[] {
  const parts = out.split('\0');
  const files: FileStat[] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i]!.replace(/^\n/, ''));
    if (!m) continue;
    const count = (s: string) => (s === '-' ? null : Number(s));
    if (m[3] === '') {
      const from = parts[i + 1] ?? '';
      const to = parts[i + 2] ?? '';
      i += 2;
      files.push({ path: to, from, added: count(m[1]!), removed: count(m[2]!) });
    } else files.push({ path: m[3]!, added: count(m[1]!), removed: count(m[2]!) });
  }
  return files;
}

/** The files a failed `git apply --check` names (patch does not apply, already exists, missing, not a match), each once. */
export function applyConflicts(stderr: string): string[] {
  const out: string[] = [];
  const add = (f: string | undefined) => {
    if (f && !out.includes(f)) out.push(f);
  };
  for (const line of stderr.split('\n')) {
    const m =
      /^error: patch failed: (.+):\d+$/.exec(line) ??
      /^error: (.+): (?:patch does not apply|already exists in working directory|does not exist in index|No such file or directory|does not match index|wrong type)$/.exec(line);
    add(m?.[1]);
  }
  return out;
}

/** The files `git apply -v` says it applied (`Applied patch NAME cleanly.`; a quoted name unquoted). */
export function appliedFiles(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^Applied patch (.+) cleanly\.$/.exec(line);
    if (m) out.push(unquote(m[1]!));
  }
  return out;
}

/** Git's C-style quoting of an unusual path (`"a\tb"`, octal bytes for non-ASCII), undone. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') bytes.push(...new TextEncoder().encode(c));
    else if (/[0-7]{3}/.test(body.slice(i + 1, i + 4))) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else bytes.push(simple[body[++i] ?? ''] ?? 92);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The worktree folders `git worktree list --porcelain` names (as git spells them). */
export function listedWorktrees(out: string): string[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));
}
