/**
 * The tree watchdog: where there are no process groups (Windows), it ends the process trees of a host's
 * agents and terminals when the host goes away, however it goes (crash, kill, window reload), and when
 * the host asks.
 *
 * One per host, started detached on first use (treeWatch.ts). The host tells it over stdin, one JSON a
 * line, `{type:"track",pid}` for each command it starts (the tree's root), `{type:"exited",pid}` when that
 * command exited, and `{type:"end",pid}` to end a tree now. When stdin closes or the host's pid is gone,
 * it ends every tree it tracks, then exits.
 *
 * Windows finds a tree from its root by parent pid (`taskkill /T`), which loses a process whose parent
 * already exited, and reuses pids quickly. So while a tree lives the watchdog looks at all processes every
 * `intervalMs` and records (pid, creation time) of every process whose parent is a recorded one alive in
 * the same listing and not younger than it. Ending a tree forcibly ends the recorded processes still alive
 * under the same creation time (never a reused pid), each with its own subtree, and repeats until a
 * listing shows none left. A process started and orphaned between two listings is not seen: only the OS
 * could follow it (a Job Object, which needs native code we do not ship).
 *
 * The listing and the kill are chosen by config: `cim` (one long-lived Windows PowerShell asked for
 * Win32_Process, the supported successor of wmic) with `taskkill`, or `proc` (/proc) with signals, which
 * runs this very logic for real on Linux in the tests. Over stdout it reports `{type:"seen",pid,pids}`
 * (descendants newly recorded for root `pid`) and `{type:"ended",pid}`.
 *
 * Plain JavaScript run with the host's own Node (`process.execPath`, ELECTRON_RUN_AS_NODE in VS Code), as
 * the POSIX watchdog is: no file to ship or find.
 */

export interface TreeWatchdogConfig {
  /** The host: when it is gone, every tree ends. */
  readonly hostPid: number;
  readonly lister: 'cim' | 'proc';
  readonly killer: 'taskkill' | 'signal';
  readonly intervalMs: number;
  /** Absolute paths (never looked up on PATH, nor in a folder an agent may write to). */
  readonly powershell: string;
  readonly taskkill: string;
}

export type TreeWatchdogReport = { readonly type: 'seen'; readonly pid: number; readonly pids: readonly number[] } | { readonly type: 'ended'; readonly pid: number };

/** Ends what PowerShell prints for one listing; spelled in two parts so an echoed command never matches. */
const END_MARK = 'acp-chat-listing-end';

/** One line per process, `p PID PPID CREATED` (creation as a FILETIME, 100 ns since 1601, UTC). */
export const CIM_QUERY =
  "Get-CimInstance -ClassName Win32_Process -Property ProcessId,ParentProcessId,CreationDate | ForEach-Object { 'p {0} {1} {2}' -f $_.ProcessId, $_.ParentProcessId, $(if ($_.CreationDate) { $_.CreationDate.ToFileTimeUtc() } else { 0 }) }; 'acp-chat-' + 'listing-end'";

/**
 * The pure part: parsing listings and growing the record. Evaluated on its own by the tests.
 * A listing is `[{pid, ppid, start}]`, `start` a decimal string (creation time, comparable per lister).
 */
export const TREE_LOGIC_SOURCE = String.raw`
const END_MARK = ${JSON.stringify(END_MARK)};
function parseCimListing(text) {
  const out = [];
  for (const line of text.split(/\r?\n/)) {
    // A prompt or other noise may precede a line: only its end is read.
    const m = /(?:^|\s)p (\d+) (\d+) (\d+)\s*$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), ppid: Number(m[2]), start: m[3] });
  }
  return out;
}
function parseProcStat(pid, text) {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X' || fields[19] === undefined) return null;
  return { pid, ppid: Number(fields[1]), start: fields[19] };
}
function notBefore(a, b) { return BigInt(a) >= BigInt(b); }
// A tree: { pid, seen: Map(pid -> start), adopted, exited }. Returns the pids newly recorded.
function grow(tree, listing, hostPid) {
  const live = new Map(listing.map((e) => [e.pid, e]));
  const added = [];
  // The root is ours only as the host's child, and only before the host saw it exit (its pid may be reused).
  if (!tree.adopted && !tree.exited) {
    const root = live.get(tree.pid);
    if (root && root.ppid === hostPid) { tree.seen.set(root.pid, root.start); tree.adopted = true; added.push(root.pid); }
  }
  // Gone (or its pid now someone else's): forgotten, it can never come back.
  for (const [pid, start] of tree.seen) { const e = live.get(pid); if (!e || e.start !== start) tree.seen.delete(pid); }
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of listing) {
      if (tree.seen.has(e.pid) || e.ppid === e.pid) continue;
      const parent = live.get(e.ppid);
      // Windows keeps a dead parent's pid in its children and reuses it: the parent must be the recorded
      // one, alive in this same listing, and not younger than the child.
      if (parent && tree.seen.get(parent.pid) === parent.start && notBefore(e.start, parent.start)) {
        tree.seen.set(e.pid, e.start);
        added.push(e.pid);
        grew = true;
      }
    }
  }
  return added;
}
`;

export const TREE_WATCHDOG_SOURCE = String.raw`'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
${TREE_LOGIC_SOURCE}
const config = JSON.parse(process.argv[1]);
const trees = new Map();
const tell = (m) => { try { process.stdout.write(JSON.stringify(m) + '\n'); } catch {} };
process.stdout.on('error', () => {});
// What the host's console gets (Ctrl+C, a closed window) is the host's to handle; we clean up after it.
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) { try { process.on(s, () => {}); } catch {} }

function procListing() {
  let names;
  try { names = fs.readdirSync('/proc'); } catch { return null; }
  const out = [];
  for (const name of names) {
    if (!/^[0-9]+$/.test(name)) continue;
    try { const e = parseProcStat(Number(name), fs.readFileSync('/proc/' + name + '/stat', 'utf8')); if (e) out.push(e); } catch {}
  }
  return out;
}
let ps = null;
let psText = '';
let psWaiter = null;
function powershell() {
  if (ps) return ps;
  const me = spawn(config.powershell, ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', '-'], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
  ps = me;
  const answer = (text) => { const w = psWaiter; psWaiter = null; psText = ''; if (w) w(text); };
  me.stdout.setEncoding('utf8');
  me.stdout.on('data', (c) => {
    psText += c;
    const i = psText.indexOf(END_MARK);
    if (i >= 0) answer(psText.slice(0, i));
  });
  const gone = () => { if (ps === me) { ps = null; answer(null); } };
  me.on('error', gone);
  me.on('exit', gone);
  me.stdin.on('error', () => {});
  return me;
}
function cimListing() {
  return new Promise((resolve) => {
    const p = powershell();
    // A listing that never comes: that PowerShell is replaced.
    const timer = setTimeout(() => { try { p.kill(); } catch {} }, 30000);
    psWaiter = (text) => { clearTimeout(timer); resolve(text === null ? null : parseCimListing(text)); };
    try { p.stdin.write(${JSON.stringify(CIM_QUERY)} + '\n'); } catch { psWaiter = null; clearTimeout(timer); resolve(null); }
  });
}
// One listing at a time; an empty one means the listing failed, not that nothing runs.
let queue = Promise.resolve();
function listing() {
  const next = queue.then(() => (config.lister === 'proc' ? procListing() : cimListing())).then((l) => (l && l.length > 0 ? l : null), () => null);
  queue = next;
  return next;
}
function kill(pid) {
  if (pid === process.pid || pid === config.hostPid) return Promise.resolve();
  if (config.killer === 'signal') { try { process.kill(pid, 'SIGKILL'); } catch {} return Promise.resolve(); }
  return new Promise((resolve) => {
    const k = spawn(config.taskkill, ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    k.on('error', resolve);
    k.on('exit', resolve);
  });
}
function record(l) {
  for (const tree of trees.values()) {
    const added = grow(tree, l, config.hostPid);
    if (added.length > 0) tell({ type: 'seen', pid: tree.pid, pids: added });
  }
}
function endTree(tree) {
  if (tree.ending) return tree.ending;
  tree.ending = (async () => {
    for (let round = 0; round < 10; round++) {
      const l = await listing();
      if (!l) {
        // Nothing to verify against: only the root, and only while the host has not seen it exit.
        if (round === 0 && !tree.exited) await kill(tree.pid);
        break;
      }
      record(l);
      if (tree.seen.size === 0) break;
      await Promise.all([...tree.seen.keys()].map(kill));
    }
    trees.delete(tree.pid);
    tell({ type: 'ended', pid: tree.pid });
  })();
  return tree.ending;
}
let leaving = false;
async function endAll() {
  if (leaving) return;
  leaving = true;
  await Promise.all([...trees.values()].map(endTree));
  if (ps) { try { ps.kill(); } catch {} }
  process.exit(0);
}
let looking = false;
async function look() {
  if (looking || trees.size === 0 || leaving) return;
  looking = true;
  const l = await listing();
  if (l && !leaving) record(l);
  looking = false;
}
setInterval(() => {
  // A lost pipe is the usual sign; a pid that is gone is the last word (a reused pid only delays this).
  try { process.kill(config.hostPid, 0); } catch (e) { if (e.code === 'ESRCH') void endAll(); }
  void look();
}, config.intervalMs);
let asked = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  asked += chunk;
  for (let nl; (nl = asked.indexOf('\n')) >= 0; asked = asked.slice(nl + 1)) {
    let m;
    try { m = JSON.parse(asked.slice(0, nl)); } catch { continue; }
    if (!m || typeof m.pid !== 'number' || leaving) continue;
    const tree = trees.get(m.pid);
    if (m.type === 'track' && !tree) { trees.set(m.pid, { pid: m.pid, seen: new Map(), adopted: false, exited: false, ending: null }); void look(); }
    else if (m.type === 'exited' && tree) tree.exited = true;
    else if (m.type === 'end' && tree) void endTree(tree);
  }
});
process.stdin.on('end', () => void endAll());
process.stdin.on('close', () => void endAll());
process.stdin.on('error', () => void endAll());
`;
