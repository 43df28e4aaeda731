/**
 * Process liveness for the orphan tests, from /proc (Linux). A zombie counts as gone: it runs nothing,
 * and in containers whose init does not reap, orphans stay zombies for good.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

function stat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z';
}

/** Pids of live (non-zombie) members of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      const s = stat(pid);
      return s !== undefined && s.pgrp === pgid && s.state !== 'Z';
    });
}

/** Starts a stand-in host (a tsx script, detached into its own group) and resolves with it and what it prints as its first JSON line. */
export function startHostPrinting<T>(script: string, args: readonly string[] = []): Promise<{ host: ChildProcess; printed: T }> {
  const host = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  return new Promise((resolve, reject) => {
    let buf = '';
    host.stdout.setEncoding('utf8');
    host.stdout.on('data', (c: string) => {
      buf += c;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ host, printed: JSON.parse(buf.slice(0, nl)) as T });
    });
    host.on('exit', (code) => reject(new Error(`host exited early (${code})`)));
  });
}

/** `startHostPrinting` for hosts that print the pids they started. */
export async function startHostPrintingPids(script: string, args: readonly string[] = []): Promise<{ host: ChildProcess; pids: number[] }> {
  const { host, printed } = await startHostPrinting<number[]>(script, args);
  return { host, pids: printed };
}
