/**
 * `run --worktrees`: one task to several agents at once, each in a git worktree of its own made from the
 * repository's HEAD (src/node/git: no hooks, nothing pushed), each run by `run` itself with that worktree as
 * its --cwd (so its boundary is the worktree); each transcript is printed whole when its run ends (never
 * interleaved), then a table compares them (common/worktrees/compareRows.ts, as the extension's compare view).
 */
import os from 'node:os';
import path from 'node:path';
import { compareTable, type AgentRun } from '../../common/worktrees/compareRows';
import { terminalSafe } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { hostGit } from '../git/gitRun';
import { probeRepo } from '../git/repoProbe';
import { createWorktree, worktreeFiles } from '../git/worktrees';
import type { WorktreeInfo } from '../../common/worktrees/worktreeInfo';

/** The agents after the first `--`, split at each further `--` (with --worktrees only). */
export function splitAgents(rest: readonly string[]): string[][] {
  const agents: string[][] = [[]];
  for (const a of rest) {
    if (a === '--') agents.push([]);
    else agents[agents.length - 1]!.push(a);
  }
  return agents;
}

interface Runnable {
  readonly cwd: string;
  readonly agent: string[];
  readonly capture: string | undefined;
  readonly worktrees?: { readonly dir: string | undefined; readonly agents: readonly string[][] };
}

/** The agent's answer as the printer wrote it: the text lines after the last prompt that are not `[tag]` lines. */
export function answerFromTranscript(text: string): string {
  const lines = text.split('\n');
  const start = lines.map((l) => l.startsWith('[user]')).lastIndexOf(true);
  return lines
    .slice(start + 1)
    .filter((l) => l.trim() !== '' && !/^\s*\[[a-z -]+\]/i.test(l))
    .join('\n');
}

export async function runWorktrees<O extends Runnable>(
  o: O,
  out: (s: string) => void,
  err: (s: string) => void,
  runOne: (o: O, out: (s: string) => void, err: (s: string) => void) => Promise<number>,
): Promise<number> {
  const agents = o.worktrees?.agents ?? [o.agent];
  const probe = await probeRepo(hostGit, o.cwd);
  if (probe.kind !== 'repo') {
    err(`run: --worktrees: ${probe.message}\n`);
    return 2;
  }
  const parent = o.worktrees?.dir ?? path.join(os.tmpdir(), 'acp-chat-worktrees');
  const stamp = Date.now().toString(36);
  const made: WorktreeInfo[] = [];
  try {
    for (const [i, agent] of agents.entries())
      made.push(
        await createWorktree(hostGit, {
          repo: probe.top,
          head: probe.head,
          parent,
          chatId: `run-${stamp}-${i + 1}`,
          title: `run ${path.basename(agent[0] ?? 'agent')} ${i + 1}`,
          carry: false,
        }),
      );
  } catch (e) {
    err(`run: --worktrees: ${errorText(e)}\n`);
    return 1;
  }
  // The agent works in the same place relative to the repository as --cwd names.
  const sub = path.relative(probe.top, o.cwd);
  const runs = await Promise.all(
    agents.map(async (agent, i) => {
      const w = made[i]!;
      let text = '';
      const startedAt = Date.now();
      const capture = o.capture === undefined ? undefined : o.capture.replace(/(\.jsonl)?$/, `-${i + 1}$1`);
      const code = await runOne(
        { ...o, cwd: path.join(w.path, sub), agent, capture, worktrees: undefined },
        (s) => (text += s),
        (s) => (text += s),
      ).catch((e: unknown) => {
        text += `run: ${errorText(e)}\n`;
        return 1;
      });
      const endedAt = Date.now();
      out(`\n=== ${i + 1}: ${terminalSafe(agent.join(' '))}  (worktree ${w.path}, branch ${w.branch}) ===\n${text}`);
      const files = await worktreeFiles(hostGit, w).catch(() => []);
      const run: AgentRun = {
        label: terminalSafe(
          agent
            .map((a) => path.basename(a))
            .join(' ')
            .slice(0, 32),
        ),
        state: code === 0 ? 'done' : 'failed',
        startedAt,
        endedAt,
        files,
        answer: terminalSafe(answerFromTranscript(text)),
      };
      return { code, run, w };
    }),
  );
  out(
    `\n${compareTable(
      runs.map((r) => r.run),
      Date.now(),
    )}\n\n`,
  );
  for (const [i, r] of runs.entries()) out(`${i + 1}: ${r.w.path} (branch ${r.w.branch}): apply with  git -C ${r.w.path} diff ${r.w.base} | git -C ${probe.top} apply\n`);
  out('The worktrees are kept; remove one with  git worktree remove --force PATH && git branch -D BRANCH\n');
  return Math.max(0, ...runs.map((r) => r.code));
}
