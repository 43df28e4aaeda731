// The CLI as it ships, for tests that run it as a process: src/node/cli.ts bundled once per test file with
// the build's own options (scripts/bundles.mjs) into a temporary file, then run by plain node. Spawning the
// source through tsx transpiled the whole tree again for every call, about a second and a half each on a
// two-core machine, and ran a form of the CLI that is not the one users get.
import { buildSync } from 'esbuild';
import { spawnSync } from 'node:child_process';
import type { SpawnSyncOptionsWithStringEncoding, SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface BundleOptions {
  cli: Parameters<typeof buildSync>[0];
}

let built: string | undefined;

/** The bundled CLI's path, built on first use and removed when the test process exits. */
function cliBundle(): string {
  if (built) return built;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load of the build's options: the tests spawn synchronously
  const { bundles } = require('../../../scripts/bundles.mjs') as { bundles(o: { production: boolean }): BundleOptions };
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-cli-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, 'cli.js');
  buildSync({ ...bundles({ production: false }).cli, outfile, logLevel: 'error' });
  built = outfile;
  return outfile;
}

/** Runs the CLI with `args` and waits for it. */
export function runCli(args: readonly string[], options: Partial<SpawnSyncOptionsWithStringEncoding> = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [cliBundle(), ...args], { ...options, encoding: 'utf8' });
}
