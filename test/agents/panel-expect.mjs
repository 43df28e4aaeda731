// What the real-panel stage (run-real-panel.mjs / panel-client.mjs) compares the chat panel against: the
// extension's own capture of the turn, reduced by `cli reduce`, and the mock LLM's script. Plain functions,
// no browser.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Text with all whitespace removed, so rendered text (line breaks, list layout) compares with its source. */
export const squash = (s) => String(s ?? '').replace(/\s+/g, '');

/** The visible text of a Markdown source the way the panel renders it: no emphasis/code markers, no list numbers. */
export const plainMarkdown = (md) =>
  squash(
    String(md ?? '')
      .replace(/\*\*|__|`/g, '')
      .replace(/^\s*(\d+\.|[-*+])\s+/gm, ''),
  );

/** Occurrences of `needle` in `hay` (both already squashed). */
export function occurrences(hay, needle) {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Every capture file the extension wrote under a user-data dir (workspace or global storage), oldest first. */
export function findCaptures(userDataDir) {
  const out = [];
  const walk = (dir, depth) => {
    if (depth > 6 || !existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && /\.jsonl$/.test(e.name) && p.includes(`${path.sep}captures${path.sep}`)) out.push(p);
    }
  };
  walk(userDataDir, 0);
  return out.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** `node dist/cli.js reduce CAPTURE` -> the reduced state ({sessions, diagnostics}). */
export function reduceCapture(cli, capture) {
  const r = spawnSync(process.execPath, [cli, 'reduce', capture], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`cli reduce ${path.basename(capture)} failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return JSON.parse(r.stdout);
}

/** The JSON-RPC messages of a capture (its `{dir, msg}` lines) sent one way: 'agent->client' or 'client->agent'. */
export function captureMessages(capture, dir) {
  return readFileSync(capture, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    })
    .filter((r) => r && r.dir === dir && r.msg)
    .map((r) => r.msg);
}

/** The agent->client JSON-RPC messages of a capture. */
export const agentMessages = (capture) => captureMessages(capture, 'agent->client');

/** The text of a message entry (its text blocks joined). */
export const entryText = (e) => (e.content ?? []).map((c) => (c && c.type === 'text' ? c.text : '')).join('');

/** Does a reduced tool-call entry carry this output anywhere (content, rawOutput)? */
export function toolHasOutput(e, needle) {
  return JSON.stringify([e.content ?? [], e.rawOutput ?? null]).includes(needle);
}

/** The mock's step texts: what the agent must say, each exactly once, in the first turn. */
export function stepTexts(mock) {
  return (mock?.steps ?? []).map((s) => s.text).filter((t) => typeof t === 'string');
}

/** The extension's log (its LogOutputChannel files under the user-data dir's logs, every window), joined. */
export function extensionLog(userDataDir) {
  const out = [];
  const walk = (dir, depth) => {
    if (depth > 5 || !existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.name === 'ACP Chat.log') out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(userDataDir, 'logs'), 0);
  return out.join('\n');
}
