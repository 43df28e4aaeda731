/** Real temporary git repositories for the worktree tests (plain `git`, an identity of its own, no global config read). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Our own git commands see the same isolated config (set once for the test process). */
Object.assign(process.env, gitEnv);

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** A repository with `files` committed on `main`. */
export function makeRepo(files: Record<string, string>, prefix = 'wt-repo-'): string {
  const repo = tempDir(prefix);
  sh(repo, 'init', '-q', '-b', 'main');
  write(repo, files);
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'initial');
  return repo;
}

export function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}
