#!/usr/bin/env node
// Runs real published ACP agents (Claude Code, Gemini CLI, OpenCode, Codex) against the scripted
// mock LLM in ../shared/agents, driven by OUR client: `node dist/cli.js run` as ACP_CLIENT.
//   node test/agents/run-real-agents.mjs [NAME ...]
//   names: the arguments, else ACP_AGENTS (space separated), else every recipe with a mock script;
//   agents folder: ACP_AGENTS_DIR (default ../shared/agents), copied to a writable cache (agents-cache.mjs).
// For each agent it checks: the CLI exits 0, the edit is on disk in the scratch workspace, the shell
// command ran, the capture exists and reduces (`cli reduce`) with no error diagnostics to a
// transcript that holds the mock's final answer. Last line: `N passed, N failed`.
// Variants (VARIANTS below) run another turn of a recipe: `claude-next-ask` is Claude's AskUserQuestion
// turn, answered through `elicitation/create` from an --elicit-answers file; its final answer must quote
// the choice. `claude-next-compact` and `codex-next-compact` run three prompts in one session (a question,
// `/compact`, a follow-up): the CLI must print the compaction (`[compaction] completed`) and the capture
// reduce to one completed compaction row (with Claude's summary, which its second `completed` must not
// clear). `claude-next-sessions` runs the plain turn, then imports the agent's own sessions the extension's
// way (sessionImport.ts: listed for the workspace, loaded once, not offered again). `claude-next-worktrees` is
// `run --worktrees` with Claude Code and the demo agent in two modes editing one file of one repository at once
// (worktrees-turn.mjs). Variants run by default wherever their recipe's script exists.
// Needs `unshare -n` (root or CAP_SYS_ADMIN) unless ACP_NO_NETNS=1; without it everything is skipped
// with a visible message.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentNames, cache, lastText, recipeOf, root, shq as q, skipUnlessRunnable, source, syncCache } from './agents-cache.mjs';
import { worktreesTurn } from './worktrees-turn.mjs';

const cli = path.join(root, 'dist/cli.js');
const PROMPT = 'Read notes.txt, then update it, then run a shell command to show the result. Explain what you did.';

const COMPACT_PROMPTS = ['Tell me about notes.txt in two sentences.', '/compact', 'What did we talk about before?'];

/**
 * Turns other than the scripted read/edit/shell one: the recipe that runs it (given the variant's name
 * as its argument), the mock script it follows, the prompt, extra CLI flags and the answer the user gives.
 */
const VARIANTS = {
  'claude-next-ask': {
    recipe: 'claude-next',
    mock: 'claude-ask',
    prompt: 'Ask me which line to add to notes.txt, then tell me what you will do with my answer.',
    answers: { question_0: 'Add a TODO line' },
    // The mock quotes the tool result (`${TOOL_RESULT}`): the answer the client sent.
    quoted: 'Add a TODO line',
  },
  'claude-next-compact': { recipe: 'claude-next', mock: 'claude-compact', prompts: COMPACT_PROMPTS, compaction: { summary: true } },
  'codex-next-compact': { recipe: 'codex-next', mock: 'codex-compact', prompts: COMPACT_PROMPTS, compaction: { summary: false } },
  // The agent's own sessions: after the usual turn (by `cli.js run`, another client), the session is listed,
  // imported and never offered or shown twice (sessionImport.ts). The recipe runs its plain turn for it.
  'claude-next-sessions': { recipe: 'claude-next', recipeArgs: ['claude-next'], mock: 'claude', prompt: PROMPT, sessions: true },
  // `run --worktrees` (runWorktrees.mjs): Claude Code and the demo agent in two modes on one repository at once.
  'claude-next-worktrees': { recipe: 'claude-next', recipeArgs: ['claude-next'], mock: 'claude-worktree', worktrees: true },
};
const explicit = process.argv.slice(2).length > 0 || (process.env.ACP_AGENTS ?? '').trim() !== '';
const names = agentNames(process.argv.slice(2));
if (!explicit) for (const [v, d] of Object.entries(VARIANTS)) if (existsSync(path.join(source, `run-${d.recipe}.sh`))) names.push(v);
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
  const variant = VARIANTS[name];
  const script = path.join(cache, `run-${variant?.recipe ?? name}.sh`);
  if (!existsSync(script)) {
    console.log(`FAIL ${name}: no ${script}`);
    failed++;
    continue;
  }
  const capture = path.join(captures, `${name}.jsonl`);
  rmSync(capture, { force: true });
  let extra = '';
  if (variant?.answers) {
    const answers = path.join(captures, `${name}.answers.json`);
    writeFileSync(answers, JSON.stringify(variant.answers));
    extra = ` --elicit-answers ${q(answers)}`;
  }
  const wt = variant?.worktrees ? worktreesRun(name, capture) : undefined;
  const run = `node ${q(cli)} run --cwd "$ACP_CWD" --approve all --capture ${q(capture)} --timeout 200${extra} ${(variant?.prompts ?? [variant?.prompt ?? PROMPT]).map((p) => ` --prompt ${q(p)}`).join('')} --`;
  // The recipe appends the agent's command line: a function gives it to both commands.
  const client = wt?.client ?? (variant?.sessions ? `both() { ${run} "$@" && ${sessionImport(variant)} -- "$@"; }; both` : run);
  const t0 = Date.now();
  const r = spawnSync('bash', variant ? [script, ...(variant.recipeArgs ?? [name])] : [script, ...recipeOf(name).args], {
    cwd: cache,
    env: { ...process.env, ACP_CLIENT: client },
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  wt?.restore();
  const problems = wt ? wt.check(r) : variant ? checkVariant(variant, r, capture) : check(name, r, capture);
  if (problems.length === 0) {
    console.log(`ok   ${name} (${secs} s)`);
    if (variant?.sessions) for (const l of (r.stdout ?? '').split('\n').filter((x) => x.startsWith('ok   sessions:'))) console.log(`     | ${l}`);
    passed++;
  } else {
    console.log(`FAIL ${name} (${secs} s): ${problems.join('; ')}`);
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`
      .trim()
      .split('\n')
      .slice(-15)
      .map((l) => `     | ${l}`)
      .join('\n');
    if (tail) console.log(tail);
    failed++;
  }
}
done(passed, failed);

/** The import check's command line (tsx from this checkout: it runs the extension's own listing code). */
function sessionImport(variant) {
  const tsx = path.join(root, 'node_modules/tsx/dist/loader.mjs');
  const mock = JSON.parse(readFileSync(path.join(cache, 'scripts', `${variant.mock}.json`), 'utf8'));
  const answer = (lastText(mock) ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  return `node --import ${q(tsx)} ${q(path.join(root, 'test/agents/sessionImport.ts'))} --cwd "$ACP_CWD" --prompt ${q(variant.prompt)} --answer ${q(answer)}`;
}

/** The worktrees variant: its client line, the check, and the recipe's own mock script put back afterwards. */
function worktreesRun(name, capture) {
  const variant = VARIANTS[name];
  const mock = path.join(cache, 'scripts', `${variant.recipe === 'claude-next' ? 'claude' : variant.recipe}.json`);
  writeFileSync(mock, readFileSync(path.join(root, 'test/agents/scripts', `${variant.mock}.json`)));
  const turn = worktreesTurn({ cli, name, capture, work: path.join(cache, 'work'), checkout: path.join(cache, 'work', variant.recipeArgs[0]), checkCapture });
  return { ...turn, restore: () => writeFileSync(mock, readFileSync(path.join(source, 'scripts', path.basename(mock)))) };
}

function check(name, r, capture) {
  const problems = [];
  if (r.error) problems.push(`could not run: ${r.error.message}`);
  if (r.status !== 0) problems.push(`exit ${r.status ?? r.signal}`);
  const ws = path.join(cache, 'work', name);
  const notes = path.join(ws, 'notes.txt');
  if (!existsSync(notes) || readFileSync(notes, 'utf8') === 'hello\n') problems.push('the edit is not on disk (notes.txt unchanged)');
  const mock = readFileSync(path.join(cache, 'scripts', `${recipeOf(name).script}.json`), 'utf8');
  if (mock.includes('mkdir -p out') && !existsSync(path.join(ws, 'out', 'notes.txt'))) problems.push('the shell command did not run (no out/notes.txt)');
  return problems.concat(checkCapture(capture, lastText(JSON.parse(mock))));
}

/** A variant turn: the CLI exits 0, said what it answered, and the final answer quotes that answer. */
function checkVariant(variant, r, capture) {
  const problems = [];
  if (r.error) problems.push(`could not run: ${r.error.message}`);
  if (r.status !== 0) problems.push(`exit ${r.status ?? r.signal}`);
  if (variant.answers && !/\[elicitation\] -> accept/.test(r.stdout ?? '')) problems.push('the CLI did not accept the elicitation');
  if (variant.sessions && !/^sessions: all ok$/m.test(r.stdout ?? ''))
    problems.push(
      `the session import failed: ${
        (r.stdout ?? '')
          .split('\n')
          .filter((l) => l.startsWith('FAIL sessions'))
          .join('; ') || 'no result'
      }`,
    );
  const mock = JSON.parse(readFileSync(path.join(cache, 'scripts', `${variant.mock}.json`), 'utf8'));
  const finalText = variant.quoted ? (lastText(mock)?.replace('${TOOL_RESULT}', variant.quoted) ?? '') : '';
  if (!(r.stdout ?? '').includes(finalText)) problems.push(`the final answer does not quote the choice (${JSON.stringify(finalText)})`);
  if (variant.compaction) {
    if (!/^\[compaction\] completed/m.test(r.stdout ?? '')) problems.push('the CLI did not print the completed compaction');
    problems.push(...checkCompaction(capture, variant.compaction.summary));
  }
  // The reduced transcript holds it too: claude-next's thought and text share one messageId, and the
  // store keeps them apart (a message is its kind and its id).
  return problems.concat(checkCapture(capture, finalText));
}

function checkCapture(capture, finalText) {
  const problems = [];
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
  if (finalText && !answer.includes(norm(finalText))) problems.push('the reduced transcript lacks the final answer');
  return problems;
}

/** The capture reduces to one completed compaction row; with `summary`, its summary is kept. */
function checkCompaction(capture, summary) {
  if (!existsSync(capture)) return [];
  const reduced = spawnSync(process.execPath, [cli, 'reduce', capture], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (reduced.status !== 0) return [];
  const rows = JSON.parse(reduced.stdout)
    .sessions.flatMap((s) => s.entries)
    .filter((e) => e.kind === 'compaction');
  if (rows.length !== 1) return [`${rows.length} compaction rows, not 1`];
  const problems = rows[0].status === 'completed' ? [] : [`the compaction is ${rows[0].status}`];
  if (summary && !rows[0].summary.some((b) => (b.text ?? '').trim() !== '')) problems.push('the compaction lost its summary');
  return problems;
}
