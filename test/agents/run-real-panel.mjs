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
// (see panel-client.mjs). Two agents run at a time (REAL_PANEL_JOBS, default 2): one recipe keeps about
// three quarters of a core busy (code-server, Chromium, the agent), so a second one uses the idle rest of
// this 2-core class of machine. Two names that run the same recipe variant share its workspace and mock
// logs, so they never run together; without a network namespace (ACP_NO_NETNS=1) every mock listens on
// the same port, so then one runs at a time. Screenshots: test-results/real-panel-<name>-*.png.
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

const JOBS = process.env.ACP_NO_NETNS ? 1 : Math.max(1, Number(process.env.REAL_PANEL_JOBS ?? 2));
const running = new Set(); // the running recipes, so a SIGTERM/SIGINT stops them (and, through panel-client, their code-servers)
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    console.log(`${sig}: stopping ${running.size} running agent(s)`);
    Promise.allSettled([...running].map((r) => r.stop())).finally(() => process.exit(130));
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
  const entry = { stop };
  running.add(entry);
  return exited.finally(() => {
    clearTimeout(timer);
    running.delete(entry);
  });
}

let passed = 0;
let failed = 0;
const lines = new Map(); // name -> its report lines, printed in the names' order
/** Names that run the same recipe variant share its workspace and mock logs (`work/<variant>`, `logs/<variant>.*`). */
const variantOf = (name) => `${recipeOf(name).recipe} ${recipeOf(name).args.join(' ')}`;

/** Runs one name's recipe with the panel client and records its checks. */
async function runName(name) {
  const recipe = `run-${recipeOf(name).recipe}.sh`;
  if (!existsSync(path.join(cache, recipe))) {
    lines.set(name, [`FAIL ${name}: no ${recipe} in ${cache}`]);
    failed++;
    return;
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
    lines.set(name, [`ok   ${name} (${secs} s)`, ...summary]);
  } else {
    failed++;
    lines.set(name, [`FAIL ${name} (${secs} s): ${bad.length} of ${result.checks.length} checks failed`, ...summary]);
  }
}

// A pool of JOBS workers; each takes the first waiting name whose variant is not running.
const waiting = [...names];
const busyVariants = new Set();
const waiters = new Set();
async function worker() {
  for (;;) {
    const i = waiting.findIndex((n) => !busyVariants.has(variantOf(n)));
    if (i < 0) {
      if (waiting.length === 0) return;
      await new Promise((r) => waiters.add(r)); // a running variant ends, then look again
      continue;
    }
    const [name] = waiting.splice(i, 1);
    busyVariants.add(variantOf(name));
    try {
      await runName(name);
    } finally {
      busyVariants.delete(variantOf(name));
      for (const r of waiters) r();
      waiters.clear();
    }
  }
}
await Promise.all(Array.from({ length: JOBS }, worker));
console.log(`\n=== real agents through the chat panel (screenshots: test-results/real-panel-<name>-*.png)`);
for (const name of names) for (const l of lines.get(name) ?? []) console.log(l);
done(passed, failed);
