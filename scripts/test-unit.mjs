// Runs every plain-Node unit test (test/unit/**/*.test.ts) with node:test; TypeScript is loaded by tsx.
//   node scripts/test-unit.mjs [FILTER]   (FILTER: substring of the file path)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2] ?? '';
const files = readdirSync(path.join(root, 'test/unit'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && f.includes(filter))
  .sort()
  .map((f) => path.join('test/unit', f));
if (files.length === 0) {
  console.error(`no unit tests match "${filter}"`);
  process.exit(1);
}
// Three files at a time: node:test's default is one fewer than the cores (one, on a 2-core machine), and
// most files wait on child processes (agents, CLIs, process trees) rather than use a core.
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=spec', ...files], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
