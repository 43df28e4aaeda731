/**
 * The agent's watchdog (issue 11, item 12): no agent may outlive the process that started it, nor
 * leave its own children behind, however either goes away.
 *
 * AgentProcess starts `node -e WATCHDOG_SOURCE CONFIG COMMAND ARGS...` as the leader of a new process
 * group; the watchdog starts the agent in that same group with the agent's stdio (it passes the pipes
 * on and closes its own copies), and keeps one more pipe, fd 3, to the host. It ends the whole group
 * (SIGTERM, then SIGKILL after a grace period) when
 * - the agent exits by itself (its children, e.g. a `sleep` it spawned, would otherwise keep running;
 *   not for terminals, whose background jobs live until the terminal is killed or released), or
 * - fd 3 closes: the host went away (window reload, extension host crash, server stopped), or
 *   disposed the agent.
 * A process group outside the host's own also survives a kill of the host's group, which is the point.
 * The host can also ask for the end over fd 3 (`{type:"end",signal}`): the watchdog then ends the group
 * and the detached processes that carry the tree's token, reports the command's exit, and exits.
 * Over fd 3 the watchdog reports, one JSON per line: `{type:"spawned",pid}`, `{type:"error",code,message}`
 * (the agent could not be started, e.g. ENOENT) and `{type:"exit",code,signal}` (the agent's status).
 *
 * It is plain JavaScript run with the host's own Node (`process.execPath`; ELECTRON_RUN_AS_NODE makes
 * VS Code's Electron act as Node): no file to ship or find, in the extension, the CLI and the tests.
 */
import { PS_MEMBERS_SOURCE } from './process/psMembers';

/** The variables that carry the command's environment past the watchdog (see supervised.ts `watchdogEnv`). */
export const CMD_ENV_PREFIX = 'ACP_CHAT_CMD_ENV_';

export interface WatchdogConfig {
  /** How long the group gets between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  /** Whether ELECTRON_RUN_AS_NODE was set for the agent itself (else it is removed again). */
  readonly keepElectronRunAsNode: boolean;
  /**
   * Whether the command's exit ends the group. False for terminals: what the command left running in
   * the background lives until the terminal is killed or released (or the host goes away).
   */
  readonly endGroupOnExit: boolean;
  /**
   * Put in the command's environment (ACP_CHAT_TREE) and so inherited by all it starts: on Linux and
   * macOS the watchdog also ends the processes that left the group (a detached grandchild) but carry it.
   */
  readonly treeToken: string;
}

export type WatchdogReport =
  | { readonly type: 'spawned'; readonly pid: number }
  | { readonly type: 'error'; readonly code: string | null; readonly message: string }
  | { readonly type: 'exit'; readonly code: number | null; readonly signal: string | null };

export const WATCHDOG_SOURCE = String.raw`'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const config = JSON.parse(process.argv[1]);
const [command, ...args] = process.argv.slice(2);
const host = new net.Socket({ fd: 3, readable: true, writable: true });
const tell = (m) => { try { host.write(JSON.stringify(m) + '\n'); } catch {} };
// The group's SIGTERM is for the agent; the watchdog ends the group itself and goes last.
process.on('SIGTERM', () => {});
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
let ending = false;
let childDone = false;
// Linux: the live members of our group, and the processes that left it (setsid, e.g. a detached
// grandchild) but still carry our tree's token in their environment. macOS: the same from one ps.
// Elsewhere: unknown (null).
const mark = 'ACP_CHAT_TREE=' + config.treeToken;
${PS_MEMBERS_SOURCE}
function runPs(args) {
  const r = require('child_process').spawnSync('ps', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error || r.status !== 0) throw r.error || new Error('ps failed');
  return { pid: r.pid, stdout: r.stdout };
}
function members() {
  if (process.platform === 'darwin') return psMembers(process.platform, process.pid, mark, runPs);
  let names;
  try { names = fs.readdirSync('/proc'); } catch { return null; }
  const inGroup = [];
  const strays = [];
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync('/proc/' + name + '/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      if (Number(fields[2]) === process.pid) { inGroup.push(Number(name)); continue; }
      const env = fs.readFileSync('/proc/' + name + '/environ', 'utf8');
      if (env.startsWith(mark + '\0') || env.includes('\0' + mark + '\0')) strays.push(Number(name));
    } catch {}
  }
  return { inGroup, strays };
}
function signalAll(signal, found) {
  // A group SIGKILL would end the watchdog too, before it reports: members one by one, where known.
  const group = found === null || signal !== 'SIGKILL' ? [-process.pid] : found.inGroup;
  for (const pid of (found ? found.strays : []).concat(group)) { try { process.kill(pid, signal); } catch {} }
}
function endGroup(code, first) {
  if (ending) return;
  ending = true;
  signalAll(first || 'SIGTERM', members());
  const deadline = Date.now() + config.graceMs;
  const check = () => {
    const found = members();
    const left = found === null || found.inGroup.length + found.strays.length > 0 || !childDone;
    if (left && Date.now() < deadline) return void setTimeout(check, 25);
    if (left) signalAll('SIGKILL', found);
    host.end(() => process.exit(code));
    setTimeout(() => process.exit(code), 200).unref();
  };
  setTimeout(check, 10);
}
// The host may ask for the end itself (a terminal's kill): {"type":"end","signal":"SIGKILL"} on fd 3.
let asked = '';
host.on('data', (chunk) => {
  asked += chunk;
  for (let nl; (nl = asked.indexOf('\n')) >= 0; asked = asked.slice(nl + 1)) {
    try { const m = JSON.parse(asked.slice(0, nl)); if (m.type === 'end') endGroup(0, m.signal); } catch {}
  }
});
host.on('error', () => endGroup(0));
host.on('end', () => endGroup(0));
host.on('close', () => endGroup(0));
host.setEncoding('utf8');
// The command's environment: ours, changed as the host handed over (never applied to this process).
const env = { ...process.env };
for (const k of Object.keys(env)) {
  if (!k.startsWith('ACP_CHAT_CMD_ENV_')) continue;
  try { const [name, value] = JSON.parse(env[k]); if (value === null) delete env[name]; else env[name] = value; } catch {}
  delete env[k];
}
env.ACP_CHAT_TREE = config.treeToken;
if (!config.keepElectronRunAsNode) delete env.ELECTRON_RUN_AS_NODE;
function started(child) {
  child.on('spawn', () => {
    tell({ type: 'spawned', pid: child.pid });
    // The agent has its stdio; holding our copies would keep the host from seeing its stdout end.
    for (const fd of [0, 1, 2]) { try { fs.closeSync(fd); } catch {} }
  });
  child.on('error', (e) => {
    childDone = true;
    tell({ type: 'error', code: e.code || null, message: String(e.message || e) });
    endGroup(127);
  });
  child.on('exit', (code, signal) => {
    childDone = true;
    tell({ type: 'exit', code, signal });
    if (config.endGroupOnExit) endGroup(0);
  });
}
try {
  started(spawn(command, args, { stdio: 'inherit', env }));
} catch (e) {
  childDone = true;
  tell({ type: 'error', code: e.code || null, message: String(e.message || e) });
  endGroup(127);
}
`;
