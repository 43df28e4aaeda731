// Shared by the real-agent stages (run-real-agents.mjs: through the CLI; run-real-panel.mjs: through the
// chat panel). The agents folder (ACP_AGENTS_DIR, default ../shared/agents: `run-<name>.sh` recipes with the
// ACP_CLIENT hook, the mock LLM and its scripts) is read-only, so it is copied to a stable cache dir
// ($ACP_AGENTS_CACHE, else $XDG_CACHE_HOME/acp-chat-agents, else ~/.cache/acp-chat-agents) where the
// agents' npm installs persist between runs (first install 10–90 s per agent, later runs seconds).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const source = path.resolve(process.env.ACP_AGENTS_DIR ?? path.join(root, '../shared/agents'));
export const cache = path.resolve(process.env.ACP_AGENTS_CACHE ?? path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'acp-chat-agents'));

/**
 * Names whose turn comes from another recipe or mock script: the recipe (`run-<recipe>.sh`), the mock
 * script, and the variant the recipe runs (a recipe such as run-claude-next.sh records several turns
 * unless told which). `ask`: the real-panel stage answers the agent's question card that way
 * ('click' or 'key') instead of running the read/edit/shell checks. `subagent`: it runs the delegation
 * turn ('foreground' or 'background', panel-subagent.mjs) instead. `compact`: the compaction turns
 * (panel-compact.mjs; `{summary}`: whether the agent sends one).
 */
const RECIPES = {
  'claude-next': { script: 'claude', args: ['claude-next'] },
  'claude-next-ask-click': { recipe: 'claude-next', script: 'claude-ask', args: ['claude-next-ask'], ask: 'click' },
  'claude-next-ask-keys': { recipe: 'claude-next', script: 'claude-ask', args: ['claude-next-ask'], ask: 'key' },
  'claude-next-subagent': { recipe: 'claude-next', script: 'claude-subagent', args: ['claude-next-subagent'], subagent: 'foreground' },
  'claude-next-subagent-bg': { recipe: 'claude-next', script: 'claude-subagent-bg', args: ['claude-next-subagent-bg'], subagent: 'background' },
  'claude-next-compact': { recipe: 'claude-next', script: 'claude-compact', args: ['claude-next-compact'], compact: { summary: true } },
  'codex-next-compact': { recipe: 'codex-next', script: 'codex-compact', args: ['codex-next-compact'], compact: { summary: false } },
};
export const recipeOf = (name) => ({
  recipe: RECIPES[name]?.recipe ?? name,
  script: RECIPES[name]?.script ?? name,
  args: RECIPES[name]?.args ?? [],
  ask: RECIPES[name]?.ask,
  subagent: RECIPES[name]?.subagent,
  compact: RECIPES[name]?.compact,
});

/** The real-panel stage's question, subagent and compaction turns, run by default wherever their recipe exists. */
export const panelVariants = () =>
  Object.keys(RECIPES).filter((n) => (RECIPES[n].ask || RECIPES[n].subagent || RECIPES[n].compact) && existsSync(path.join(source, `run-${RECIPES[n].recipe}.sh`)));

/**
 * Mock scripts of the project's own (test/agents/scripts/*.json) laid over the cache's copies of the shared
 * ones: the subagent turn's child also runs a shell command, so a permission is asked inside the child. The
 * next `syncCache` puts the shared scripts back.
 */
export function overlayScripts() {
  const own = path.join(root, 'test/agents/scripts');
  if (!existsSync(own)) return;
  for (const f of readdirSync(own)) if (f.endsWith('.json')) writeFileSync(path.join(cache, 'scripts', f), readFileSync(path.join(own, f)));
}

/**
 * The agents to run: ACP_AGENTS (space separated) or the command-line names, else every `run-<name>.sh`
 * recipe that has a scripted turn (`scripts/<name>.json` for the mock LLM). That leaves out
 * run-sdk-example.sh: the SDK's example agent answers with canned text and touches no files, so a scripted
 * read/edit/shell turn has nothing to be checked against.
 */
export function agentNames(argv = []) {
  const fromEnv = (process.env.ACP_AGENTS ?? '').split(/\s+/).filter(Boolean);
  if (argv.length) return argv;
  if (fromEnv.length) return fromEnv;
  if (!existsSync(source)) return [];
  return readdirSync(source)
    .map((f) => /^run-(.+)\.sh$/.exec(f)?.[1])
    .filter((n) => n !== undefined && existsSync(path.join(source, 'scripts', `${recipeOf(n).script}.json`)))
    .sort();
}

/**
 * Exits with a visible SKIP (0 passed, 0 failed) when the agents cannot run here: no agents folder, or no
 * `unshare -n` (needs root or CAP_SYS_ADMIN) and ACP_NO_NETNS unset.
 */
export function skipUnlessRunnable(done) {
  if (!existsSync(source)) {
    console.log(`SKIP: ${source} not found; real-agent tests skipped (set ACP_AGENTS_DIR)`);
    done(0, 0);
  }
  if (!process.env.ACP_NO_NETNS && spawnSync('unshare', ['-n', 'true']).status !== 0) {
    console.log('SKIP: `unshare -n` is unavailable here (needs root or CAP_SYS_ADMIN); real-agent tests skipped.');
    console.log('      Set ACP_NO_NETNS=1 to run them without network isolation.');
    done(0, 0);
  }
}

// Copy the scripts (not node_modules, work, logs, transcripts) into the writable cache, keeping the
// exec bit; source files are read-only, so copies are made writable for the next refresh.
const SKIP_DIRS = new Set(['node_modules', 'work', 'logs', 'transcripts', 'captures']);
export function syncCache(from = source, to = cache) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) syncCache(src, dst);
    else if (entry.isFile()) {
      const mode = statSync(src).mode & 0o111 ? 0o755 : 0o644;
      if (existsSync(dst)) chmodSync(dst, 0o644);
      writeFileSync(dst, readFileSync(src));
      chmodSync(dst, mode);
    }
  }
}

/** The mock LLM's script for an agent (`scripts/<name>.json` in the cache), or undefined. */
export function mockScript(name) {
  const f = path.join(cache, 'scripts', `${recipeOf(name).script}.json`);
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined;
}

/** The mock script's last `text` step: the agent's final answer. */
export function lastText(mock) {
  const steps = Array.isArray(mock?.steps) ? mock.steps : [];
  for (let i = steps.length - 1; i >= 0; i--) if (typeof steps[i].text === 'string') return steps[i].text;
  return undefined;
}

/** Single-quoted for a shell command line. */
export const shq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
