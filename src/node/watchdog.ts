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
 * Over fd 3 the watchdog reports, one JSON per line: `{type:"spawned",pid}`, `{type:"error",code,message}`
 * (the agent could not be started, e.g. ENOENT) and `{type:"exit",code,signal}` (the agent's status).
 *
 * It is plain JavaScript run with the host's own Node (`process.execPath`; ELECTRON_RUN_AS_NODE makes
 * VS Code's Electron act as Node): no file to ship or find, in the extension, the CLI and the tests.
 */

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
function othersInGroup() {
  // Linux: look for live members of our group; elsewhere assume some until the grace period is over.
  let names;
  try { names = fs.readdirSync('/proc'); } catch { return true; }
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = fs.readFileSync('/proc/' + name + '/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === process.pid && fields[0] !== 'Z') return true;
    } catch {}
  }
  return false;
}
function endGroup(code) {
  if (ending) return;
  ending = true;
  try { process.kill(-process.pid, 'SIGTERM'); } catch {}
  const deadline = Date.now() + config.graceMs;
  const check = () => {
    if (othersInGroup() && Date.now() < deadline) return void setTimeout(check, 25);
    if (Date.now() >= deadline) { try { process.kill(-process.pid, 'SIGKILL'); } catch {} }
    host.end(() => process.exit(code));
    setTimeout(() => process.exit(code), 200).unref();
  };
  setTimeout(check, 10);
}
host.on('error', () => endGroup(0));
host.on('end', () => endGroup(0));
host.on('close', () => endGroup(0));
host.resume();
const env = { ...process.env };
if (!config.keepElectronRunAsNode) delete env.ELECTRON_RUN_AS_NODE;
function started(child) {
  child.on('spawn', () => {
    tell({ type: 'spawned', pid: child.pid });
    // The agent has its stdio; holding our copies would keep the host from seeing its stdout end.
    for (const fd of [0, 1, 2]) { try { fs.closeSync(fd); } catch {} }
  });
  child.on('error', (e) => {
    tell({ type: 'error', code: e.code || null, message: String(e.message || e) });
    endGroup(127);
  });
  child.on('exit', (code, signal) => {
    tell({ type: 'exit', code, signal });
    if (config.endGroupOnExit) endGroup(0);
  });
}
try {
  started(spawn(command, args, { stdio: 'inherit', env }));
} catch (e) {
  tell({ type: 'error', code: e.code || null, message: String(e.message || e) });
  endGroup(127);
}
`;
