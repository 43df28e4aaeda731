// The real-agents stage's worktree turn (issue 43): `cli.js run --worktrees` gives one prompt to three agents at
// once, each in a git worktree of its own made from one repository: the demo agent editing demo-edit.txt
// through the client (fs/write_text_file), the demo agent writing it on disk itself (ACP_DEMO_EDIT=disk), and a
// real recorded agent (Claude Code against the mock, scripts/claude-worktree.json) changing the same file with
// its own shell. Checked: each worktree holds its own agent's change and no other's, the user's checkout (the
// recipe's workspace, made a repository first) is untouched, and the comparison table names the file.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { shq as q } from './agents-cache.mjs';

const PROMPT = 'Please edit demo-edit.txt.';
const START = 'shared line\n';
/** What each agent's change leaves in demo-edit.txt, in the order the agents are given. */
const MARKS = ['Edited by the ACP Chat demo agent', 'Edited by the ACP Chat demo agent', 'Changed by Claude Code in its worktree.'];

/** `{ client, check }` (`checkout`: the recipe's workspace, $ACP_CWD): the ACP_CLIENT line (the recipe appends the real agent's command) and the check of its run. */
export function worktreesTurn({ cli, name, capture, work, checkout, checkCapture }) {
  const dir = path.join(work, `${name}-worktrees`);
  rmSync(dir, { recursive: true, force: true });
  const demo = `${q(process.execPath)} ${q(path.join(path.dirname(cli), 'demo-agent.js'))}`;
  const g = 'git -C "$ACP_CWD" -c user.name=t -c user.email=t@example.com';
  const client = [
    `${g} init -q -b main`,
    `printf ${q(START)} > "$ACP_CWD/demo-edit.txt"`,
    `${g} add -A`,
    `${g} commit -q -m start`,
    `node ${q(cli)} run --worktrees --worktree-dir ${q(dir)} --cwd "$ACP_CWD" --approve all --capture ${q(capture)} --timeout 200 --prompt ${q(PROMPT)} -- ${demo} -- env ACP_DEMO_EDIT=disk ${demo} --`,
  ].join(' && ');

  function check(r) {
    const problems = [];
    const out = r.stdout ?? '';
    if (r.error) problems.push(`could not run: ${r.error.message}`);
    if (r.status !== 0) problems.push(`exit ${r.status ?? r.signal}`);
    const trees = [...out.matchAll(/^=== (\d): .*\(worktree (.+), branch (\S+)\) ===$/gm)].sort((a, b) => Number(a[1]) - Number(b[1])).map((m) => m[2]);
    if (trees.length !== 3) return [...problems, `${trees.length} worktree runs printed, not 3`];
    for (const [i, tree] of trees.entries()) {
      const file = path.join(tree, 'demo-edit.txt');
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (!text.startsWith(START) || !text.includes(MARKS[i])) problems.push(`agent ${i + 1}'s demo-edit.txt lacks its change: ${JSON.stringify(text)}`);
      const others = MARKS.filter((m) => m !== MARKS[i]);
      if (others.some((m) => text.includes(m))) problems.push(`agent ${i + 1}'s demo-edit.txt holds another agent's change: ${JSON.stringify(text)}`);
    }
    // The two demo modes really differ: only the first asked the client to write.
    const wrote = (n) => existsSync(capture.replace(/\.jsonl$/, `-${n}.jsonl`)) && readFileSync(capture.replace(/\.jsonl$/, `-${n}.jsonl`), 'utf8').includes('fs/write_text_file');
    if (!wrote(1) || wrote(2)) problems.push(`fs/write_text_file used by demo 1: ${wrote(1)}, by demo 2 (on disk): ${wrote(2)}`);
    const status = spawnSync('git', ['-C', checkout, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });
    if (status.status !== 0 || status.stdout.trim() !== '') problems.push(`the user's checkout changed: ${status.stdout.trim() || status.stderr.trim()}`);
    if (readFileSync(path.join(checkout, 'demo-edit.txt'), 'utf8') !== START) problems.push("the user's demo-edit.txt changed");
    // The comparison table: every run done, with one file changed (demo-edit.txt).
    const lines = out.split('\n');
    const head = lines.findIndex((l) => /^#\s+agent\s+state/.test(l));
    const rows = head < 0 ? [] : lines.slice(head + 1, head + 4).map((l) => l.split(/\s{2,}/));
    if (rows.length !== 3 || rows.some((c) => c[2] !== 'done' || c[4] !== '1')) problems.push(`the comparison table: ${JSON.stringify(rows)}`);
    return problems.concat(checkCapture(capture.replace(/\.jsonl$/, '-3.jsonl'), 'Done: I appended a line to `demo-edit.txt` in my folder.'));
  }
  return { client, check };
}
