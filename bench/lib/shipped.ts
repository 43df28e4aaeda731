// A bench module in the form users run it: bundled once with the build's own options (scripts/bundles.mjs,
// the CLI's, minified as the package ships), as test/unit/helpers/cli.ts does for the CLI. A bench run by
// tsx otherwise measures tsx's module-by-module transpile, whose export getters sit on every cross-module
// call of a hot path: about an eighth of the end-to-end pipeline's CPU (measured in interleaved rounds).
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface BundleOptions {
  cli: Parameters<typeof buildSync>[0];
}

/** `entry` (a path from the repository's root) bundled and loaded; the bundle is removed when the process exits. */
export function shipped<T>(entry: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load of the build's options
  const { bundles } = require('../../scripts/bundles.mjs') as { bundles(o: { production: boolean }): BundleOptions };
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-bench-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}.js`);
  buildSync({ ...bundles({ production: true }).cli, banner: {}, entryPoints: [entry], outfile, logLevel: 'error' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just written
  return require(outfile) as T;
}
