#!/usr/bin/env node
// Runs real published ACP agents (Claude Code, Gemini CLI, OpenCode, Codex) against the scripted
// mock LLM in ../shared/agents, driven by OUR client: `node dist/cli.js run` as ACP_CLIENT.
//   node test/agents/run-real-agents.mjs [NAME ...]
//   names: the arguments, else ACP_AGENTS (space separated), else every recipe with a mock script;
//   agents folder: ACP_AGENTS_DIR (default ../shared/agents), copied to a writable cache (agents-cache.mjs).
// For each agent it checks: the CLI exits 0, the edit is on disk in the scratch workspace, the shell
// command ran, the capture exists and reduces (`cli reduce`) with no error diagnostics to a
// transcript that holds the mock's final answer. Last line: `N passed, N failed`.
// Needs `unshare -n` (root or CAP_SYS_ADMIN) unless ACP_NO_NETNS=1; without it everything is skipped
// with a visible message.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { agentNames, cache, lastText, recipeOf, root, shq as q, skipUnlessRunnable, syncCache } from './agents-cache.mjs';

const cli = path.join(root, 'dist/cli.js');
const names = agentNames(process.argv.slice(2));
const PROMPT = 'Read notes.txt, then update it, then run a shell command to show the result. Explain what you did.';
const TIMEOUT_MS = Number(process.env.ACP_AGENT_TIMEOUT_MS ?? 300_000);

function done(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

skipUnlessRunnable(done);
if (!existsSync(cli)) {
  console.log(`FAIL: ${cli} missing: run \`node scripts/build.mjs\` first`);
  done(0, names.length);
}
syncCache();
const captures = path.join(cache, 'captures');
mkdirSync(captures, { recursive: true });

let passed = 0;
let failed = 0;
for (const name of names) {
  const script = path.join(cache, `run-${name}.sh`);
  if (!existsSync(script)) {
    console.log(`FAIL ${name}: no ${script}`);
    failed++;
    continue;
  }
  const capture = path.join(captures, `${name}.jsonl`);
  rmSync(capture, { force: true });
  const client = `node ${q(cli)} run --cwd "$ACP_CWD" --approve all --capture ${q(capture)} --timeout 200 --prompt ${q(PROMPT)} --`;
  const t0 = Date.now();
  const r = spawnSync('bash', [script, ...recipeOf(name).args], {
    cwd: cache,
    env: { ...process.env, ACP_CLIENT: client },
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const problems = check(name, r, capture);
  if (problems.length === 0) {
    console.log(`ok   ${name} (${secs} s)`);
    passed++;
  } else {
    console.log(`FAIL ${name} (${secs} s): ${problems.join('; ')}`);
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-15).map((l) => `     | ${l}`).join('\n');
    if (tail) console.log(tail);
    failed++;
  }
}
done(passed, failed);

function check(name, r, capture) {
  const problems = [];
  if (r.error) problems.push(`could not run: ${r.error.message}`);
  if (r.status !== 0) problems.push(`exit ${r.status ?? r.signal}`);
  const ws = path.join(cache, 'work', name);
  const notes = path.join(ws, 'notes.txt');
  if (!existsSync(notes) || readFileSync(notes, 'utf8') === 'hello\n') problems.push('the edit is not on disk (notes.txt unchanged)');
  const mock = readFileSync(path.join(cache, 'scripts', `${recipeOf(name).script}.json`), 'utf8');
  if (mock.includes('mkdir -p out') && !existsSync(path.join(ws, 'out', 'notes.txt'))) problems.push('the shell command did not run (no out/notes.txt)');
  if (!existsSync(capture)) {
    problems.push('no capture file');
    return problems;
  }
  const reduced = spawnSync(process.execPath, [cli, 'reduce', capture], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (reduced.status !== 0) {
    problems.push(`reduce failed: ${(reduced.stderr || reduced.stdout).trim().split('\n')[0]}`);
    return problems;
  }
  let state;
  try {
    state = JSON.parse(reduced.stdout);
  } catch {
    problems.push('reduce printed no JSON');
    return problems;
  }
  const errors = (state.diagnostics ?? []).filter((d) => d.severity === 'error');
  if (errors.length) problems.push(`${errors.length} error diagnostics, first: ${errors[0].message}`);
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const answer = norm(
    (state.sessions ?? [])
      .flatMap((s) => s.entries)
      .filter((e) => e.kind === 'agent_message')
      .flatMap((e) => e.content)
      .map((c) => c.text ?? '')
      .join(''),
  );
  const finalText = lastText(JSON.parse(mock));
  if (finalText && !answer.includes(norm(finalText))) problems.push('the reduced transcript lacks the final answer');
  return problems;
}
