/**
 * The Windows way of keeping process trees (the tree watchdog), run for real here: commands started
 * without process groups and tracked by a tree watchdog that lists processes either from /proc or through
 * stand-ins for PowerShell and taskkill that speak the Windows tools' protocol. As a program it is a stand-in
 * host: it starts an agent and a terminal whose middle process exited and left a grandchild (orphaned, as
 * Windows' `taskkill /T` cannot follow), prints the pids as one JSON line, and waits to be killed.
 *   node --import tsx test/unit/helpers/treeWatchHost.ts proc|cim FOLDER
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Supervised } from '../../../src/node/process/supervised';
import { TreeWatch } from '../../../src/node/process/treeWatch';
import type { TreeWatchdogConfig } from '../../../src/node/process/treeWatchdog';
import { isRunning } from './procs';
import { until } from '../../helpers/until.mjs';

/** A command whose child (the middle) starts `sleep 300` and prints `tree MIDDLE GRANDCHILD`. */
const ORPHANING = `
  const { spawn } = require('child_process');
  const inner = "const g = require('child_process').spawn('sleep', ['300'], { stdio: 'ignore' }); console.log('grandchild ' + g.pid); setInterval(() => {}, 1000)";
  const middle = spawn(process.execPath, ['-e', inner], { stdio: ['ignore', 'pipe', 'ignore'] });
  middle.stdout.on('data', (d) => { const m = /grandchild (\\d+)/.exec(String(d)); if (m) console.log('tree ' + middle.pid + ' ' + m[1]); });
  setInterval(() => {}, 1000);
`;

/** Stand-in for Windows PowerShell: answers each CIM query line with this machine's processes, as the query prints them. */
const FAKE_POWERSHELL = `
  const fs = require('fs');
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (c) => {
    buf += c;
    for (let nl; (nl = buf.indexOf('\\n')) >= 0; buf = buf.slice(nl + 1)) {
      if (!buf.slice(0, nl).includes('Win32_Process')) continue;
      const lines = ['PS C:\\\\> '];
      for (const n of fs.readdirSync('/proc')) {
        if (!/^\\d+$/.test(n)) continue;
        try {
          const t = fs.readFileSync('/proc/' + n + '/stat', 'utf8');
          const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
          if (f[0] !== 'Z') lines.push('p ' + n + ' ' + f[1] + ' ' + f[19]);
        } catch {}
      }
      process.stdout.write(lines.join('\\r\\n') + '\\r\\nacp-chat-listing-end\\r\\n');
    }
  });
`;

/** Stand-in for taskkill: \`/T /F /PID n\` ends n and what hangs from it (by parent pid, as taskkill walks). */
const FAKE_TASKKILL = `
  const fs = require('fs');
  const pid = Number(process.argv[process.argv.indexOf('/PID') + 1]);
  const parents = new Map();
  for (const n of fs.readdirSync('/proc')) {
    try { const t = fs.readFileSync('/proc/' + n + '/stat', 'utf8'); parents.set(Number(n), Number(t.slice(t.lastIndexOf(')') + 2).split(' ')[1])); } catch {}
  }
  const doomed = [pid];
  for (let i = 0; i < doomed.length; i++) for (const [p, pp] of parents) if (pp === doomed[i] && !doomed.includes(p)) doomed.push(p);
  let found = false;
  for (const p of doomed) { try { process.kill(p, 'SIGKILL'); found = true; } catch {} }
  process.exit(found ? 0 : 128);
`;

/** A tree watchdog for `mode`; for `cim`, the stand-in tools are written to `dir`. */
export function treeWatch(mode: 'proc' | 'cim', dir: string): TreeWatch {
  const tool = (name: string, source: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!${process.execPath}\n${source}`);
    chmodSync(file, 0o755);
    return file;
  };
  const config: TreeWatchdogConfig =
    mode === 'proc'
      ? { hostPid: process.pid, lister: 'proc', killer: 'signal', intervalMs: 50, powershell: '', taskkill: '' }
      : { hostPid: process.pid, lister: 'cim', killer: 'taskkill', intervalMs: 50, powershell: tool('powershell', FAKE_POWERSHELL), taskkill: tool('taskkill', FAKE_TASKKILL) };
  return new TreeWatch(config);
}

export interface OrphanedTree {
  readonly proc: Supervised;
  readonly root: number;
  /** The grandchild, whose parent (the middle) has exited. */
  readonly orphan: number;
}

/** Starts ORPHANING under `trees`; once the watchdog has seen the grandchild, ends the middle process. */
export async function orphanedTree(trees: TreeWatch, endTreeOnExit: boolean, onExit?: () => void): Promise<OrphanedTree> {
  const seen = new Set<number>();
  trees.onReport((r) => {
    if (r.type === 'seen') for (const p of r.pids) seen.add(p);
  });
  let pids: [number, number] | undefined;
  const proc = new Supervised(
    { command: process.execPath, args: ['-e', ORPHANING] },
    {
      env: process.env,
      stdin: endTreeOnExit ? 'pipe' : 'ignore',
      graceMs: 300,
      endTreeOnExit,
      supervision: { kind: 'tree', trees },
      onReport: (r) => r.type === 'exit' && onExit?.(),
    },
  );
  proc.child.stdout?.setEncoding('utf8');
  proc.child.stdout?.on('data', (d: string) => {
    const m = /tree (\d+) (\d+)/.exec(d);
    if (m) pids = [Number(m[1]), Number(m[2])];
  });
  await until(() => pids !== undefined && seen.has(pids[0]) && seen.has(pids[1]), 'the process ids to be printed', 60_000);
  const [middle, orphan] = pids!;
  process.kill(middle, 'SIGKILL');
  await until(() => !isRunning(middle), 'the processes to be gone', 60_000);
  return { proc, root: proc.pid!, orphan };
}

if (require.main === module) {
  const mode = process.argv[2] === 'cim' ? 'cim' : 'proc';
  const trees = treeWatch(mode, process.argv[3] ?? '.');
  void (async () => {
    const agent = await orphanedTree(trees, true);
    // The terminal's command itself exited too: only what it left runs.
    let terminalExited = false;
    const terminal = await orphanedTree(trees, false, () => (terminalExited = true));
    process.kill(terminal.root, 'SIGKILL');
    await until(() => terminalExited, 'terminalExited', 60_000);
    process.stdout.write(`${JSON.stringify([agent.root, agent.orphan, terminal.orphan])}\n`);
  })();
  setInterval(() => undefined, 1000);
}
