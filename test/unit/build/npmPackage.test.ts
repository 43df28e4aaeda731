// The npm package for agent authors' CI: `npm pack`, then `npm install -g` of the tarball into a temporary
// prefix, offline (the CLI is one bundle, so the package has no runtime dependencies), gives a working
// `acp-chat` bin whose `check` writes JUnit and SARIF reports. The demo agent in the package is the agent.
// Packs what dist/ holds (built first when missing); `npm pack` outside tests runs `prepack`, a production build.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'acp-npm-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** npm without the settings of an `npm run`/`npm test` that may have started us (prefix, scripts). */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], cwd = work): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', shell: process.platform === 'win32' });
}
function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.equal(r.status, 0, `${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('npm pack, npm install -g from the tarball offline, then acp-chat check writes JUnit and SARIF', () => {
  if (!existsSync(path.join(root, 'dist/cli.js')) || !existsSync(path.join(root, 'dist/demo-agent.js'))) {
    ok(spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' }), 'the build');
  }
  const packed = JSON.parse(ok(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root), 'npm pack')) as {
    filename: string;
    files: { path: string }[];
  }[];
  const [tarball] = packed;
  assert.ok(tarball);
  assert.deepEqual(tarball.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/cli.js', 'dist/demo-agent.js', 'package.json']);

  const prefix = path.join(work, 'prefix');
  ok(run(npm, ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(work, tarball.filename)]), 'npm install -g');
  const bin = process.platform === 'win32' ? path.join(prefix, 'acp-chat.cmd') : path.join(prefix, 'bin', 'acp-chat');
  const installed = process.platform === 'win32' ? path.join(prefix, 'node_modules', 'acp-chat') : path.join(prefix, 'lib', 'node_modules', 'acp-chat');
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { dependencies?: object };
  assert.equal(manifest.dependencies, undefined, 'the CLI bundle needs no runtime dependencies');

  const help = ok(run(bin, ['--help']), 'acp-chat --help');
  for (const command of ['check', 'reduce', 'run']) assert.match(help, new RegExp(`^  ${command} `, 'm'));

  // The agent author's CI job: check the agent, keep the capture, write both reports.
  const agent = path.join(installed, 'dist', 'demo-agent.js');
  const r = run(bin, ['check', '--junit', 'junit.xml', '--sarif', 'check.sarif', '--capture', 'capture.jsonl', '--timeout', '60', '--', process.execPath, agent]);
  ok(r, 'acp-chat check');
  assert.match(r.stdout, /0 errors, 0 warnings in \d+ capture lines/);
  const junit = readFileSync(path.join(work, 'junit.xml'), 'utf8');
  assert.match(junit, /<testsuites name="acp-chat check" tests="\d+" failures="0">/);
  assert.match(junit, /<testcase classname="acp\.conformance" name="unknown-method: /);
  const sarif = JSON.parse(readFileSync(path.join(work, 'check.sarif'), 'utf8')) as {
    version: string;
    runs: { tool: { driver: { semanticVersion: string; rules: unknown[] } }; results: unknown[]; artifacts: { location: { uri: string } }[] }[];
  };
  assert.equal(sarif.version, '2.1.0');
  const [sarifRun] = sarif.runs;
  assert.ok(sarifRun);
  assert.equal(sarifRun.tool.driver.semanticVersion, (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);
  assert.ok(sarifRun.tool.driver.rules.length > 10);
  assert.deepEqual(sarifRun.results, []);
  assert.deepEqual(sarifRun.artifacts, [{ location: { uri: 'capture.jsonl' } }]);

  // The recorded capture reduces and checks from the file as well.
  ok(run(bin, ['reduce', 'capture.jsonl']), 'acp-chat reduce');
  ok(run(bin, ['check', 'capture.jsonl']), 'acp-chat check capture.jsonl');
});
