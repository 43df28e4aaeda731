#!/usr/bin/env node
// Real published ACP agents driven THROUGH THE CHAT PANEL in the real VS Code host (code-server + headless
// Chromium), each against the scripted mock LLM in its own network namespace.
//   node test/agents/run-real-panel.mjs [NAME ...]
//   names: the arguments, else ACP_AGENTS (space separated), else every recipe with a mock script plus
//   the question turns (`claude-next-ask-click`, `claude-next-ask-keys`: Claude's AskUserQuestion card,
//   answered by click and by keyboard) and the subagent turns (`claude-next-subagent`, `-bg`: a delegation
//   card, a permission asked inside the child; panel-subagent.mjs) wherever run-claude-next.sh exists;
//   agents folder: ACP_AGENTS_DIR (default ../shared/agents), copied to a writable cache (agents-cache.mjs).
// Each agent's recipe (`run-<name>.sh`) runs with ACP_CLIENT = panel-client.mjs, which starts code-server
// inside the recipe's namespace with the agent in `acpChat.agents` as the default, and runs the checks
// (see panel-client.mjs). Agents run one after another. Screenshots: test-results/real-panel-<name>-*.png.
// Needs `unshare -n` (root or CAP_SYS_ADMIN) unless ACP_NO_NETNS=1. Last line: `N passed, N failed`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { agentNames, cache, overlayScripts, panelVariants, recipeOf, root, shq, skipUnlessRunnable, syncCache } from './agents-cache.mjs';

const explicit = process.argv.slice(2).length > 0 || (process.env.ACP_AGENTS ?? '').trim() !== '';
const names = [...agentNames(process.argv.slice(2)), ...(explicit ? [] : panelVariants())];
const AGENT_TIMEOUT_MS = Number(process.env.REAL_PANEL_AGENT_TIMEOUT_MS ?? 600_000);
const client = path.join(root, 'test/agents/panel-client.mjs');

function done(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

skipUnlessRunnable(done);
for (const f of ['dist/extension.js', 'dist/cli.js']) {
  if (!existsSync(path.join(root, f))) {
    console.log(`FAIL: ${f} missing: run \`node scripts/build.mjs\` first`);
    done(0, names.length);
  }
}
syncCache();
overlayScripts();
const logs = path.join(cache, 'logs');
mkdirSync(logs, { recursive: true });

let current; // the running recipe, so a SIGTERM/SIGINT stops it (and, through panel-client, its code-server)
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    console.log(`${sig}: stopping the running agent`);
    current?.stop().finally(() => process.exit(130));
    if (!current) process.exit(130);
  });
}

/** Runs a recipe with the panel client, its output prefixed by the agent's name; resolves to the exit code. */
function runRecipe(name, resultFile) {
  const child = spawn('bash', [path.join(cache, `run-${recipeOf(name).recipe}.sh`), ...recipeOf(name).args], {
    cwd: cache,
    // Its own process group, so a timeout ends the recipe, unshare, the client and its browser together.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The recipes give the agent (and so the client) a HOME of its own: name the cache outright, or the
    // client would look for the mock's script under that HOME and find none.
    env: { ...process.env, ACP_CLIENT: `${shq(process.execPath)} ${shq(client)}`, ACP_AGENTS_CACHE: cache, REAL_PANEL_NAME: name, REAL_PANEL_RESULT: resultFile },
  });
  const prefix = (b) => b.toString().replace(/^(?=.)/gm, `  [${name}] `);
  child.stdout.on('data', (b) => process.stdout.write(prefix(b)));
  child.stderr.on('data', (b) => process.stdout.write(prefix(b)));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const kill = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  // SIGTERM first: panel-client stops its code-server on SIGTERM; whatever is left is killed 15 s later.
  const stop = () => {
    kill('SIGTERM');
    const t = setTimeout(() => kill('SIGKILL'), 15_000);
    return exited.finally(() => clearTimeout(t));
  };
  const timer = setTimeout(() => {
    console.log(`  [${name}] timed out after ${AGENT_TIMEOUT_MS / 1000} s`);
    void stop();
  }, AGENT_TIMEOUT_MS);
  current = { stop };
  return exited.finally(() => {
    clearTimeout(timer);
    current = undefined;
  });
}

let passed = 0;
let failed = 0;
const lines = [];
for (const name of names) {
  const recipe = `run-${recipeOf(name).recipe}.sh`;
  if (!existsSync(path.join(cache, recipe))) {
    lines.push(`FAIL ${name}: no ${recipe} in ${cache}`);
    failed++;
    continue;
  }
  const resultFile = path.join(logs, `panel-${name}.json`);
  rmSync(resultFile, { force: true });
  const t0 = Date.now();
  console.log(`=== ${name}`);
  const code = await runRecipe(name, resultFile);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  let result;
  try {
    result = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    result = { checks: [], notes: [] };
  }
  const bad = result.checks.filter((c) => !c.ok);
  if (code !== 0 && bad.length === 0) bad.push({ name: `the recipe exited ${code}`, detail: 'see the output above' });
  if (result.checks.length === 0 && bad.length === 0) bad.push({ name: 'no checks ran', detail: '' });
  const summary = [
    ...result.checks.map((c) => `     ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok ? '' : `: ${c.detail.split('\n').join('\n           ')}`}`),
    ...(code !== 0 && !result.checks.some((c) => !c.ok) ? [`     FAIL the recipe exited ${code}`] : []),
    ...result.notes.map((n) => `     note ${n}`),
  ];
  if (bad.length === 0) {
    passed++;
    lines.push(`ok   ${name} (${secs} s)`, ...summary);
  } else {
    failed++;
    lines.push(`FAIL ${name} (${secs} s): ${bad.length} of ${result.checks.length} checks failed`, ...summary);
  }
}
console.log(`\n=== real agents through the chat panel (screenshots: test-results/real-panel-<name>-*.png)`);
for (const l of lines) console.log(l);
done(passed, failed);
