// Runs the conformance vectors (test/conformance/vectors) through the shared checker itself, with the CLI's
// own `reduce` in-process (src/node/cli/reduce.ts, `--state` file included) instead of a process per call.
// test/conformance/check.mjs is shared/conformance/check.mjs copied byte for byte (the first test keeps the
// copy equal while ../shared is there); its text is run as written, only its imports handed in, so the
// comparison, the split through a state file and the key check are the shared ones, not a copy of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { main as reduce } from '../../src/node/cli/reduce';

const here = path.resolve(__dirname, '../conformance');
const dir = path.join(here, 'vectors');
const checkerFile = path.join(here, 'check.mjs');
const shared = path.resolve(__dirname, '../../../shared/conformance/check.mjs');

/** What reduce wrote to stderr across the run: a state file it could not read back, say (none expected). */
const stderrSeen: string[] = [];

/** `node dist/cli.js reduce ARGS` in-process: the checker's execFileSync (its output, or a throw with its stderr). */
function reduceSync(_cmd: string, args: readonly string[]): string {
  const out: string[] = [];
  const err: string[] = [];
  const { stdout, stderr } = process;
  const write = stdout.write;
  const writeErr = stderr.write;
  stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof stdout.write;
  stderr.write = ((chunk: string | Uint8Array) => err.push(String(chunk)) > 0) as typeof stderr.write;
  let code: number | undefined;
  try {
    // Its body is synchronous (files and the store only): the code is in before the promise is awaited.
    void reduce([...args]).then((c) => (code = c));
  } finally {
    stdout.write = write;
    stderr.write = writeErr;
  }
  stderrSeen.push(...err);
  if (out.length === 0) throw Object.assign(new Error(`reduce exited with ${String(code)}`), { stderr: err.join('') });
  return out.join('');
}

/** Runs check.mjs over `vectorDir` and returns what it printed, one line per vector, and its exit code. */
function runChecker(vectorDir: string): { lines: string[]; exitCode: number | undefined } {
  const text = readFileSync(checkerFile, 'utf8')
    .replace(/^#!.*$/m, '') // a script's first line, not JavaScript inside a function
    .replace(/^import .*;$/gm, '') // handed in below
    .replace('import.meta.url', 'checkerUrl');
  const lines: string[] = [];
  let exitCode: number | undefined;
  const fakeProcess = { argv: ['node', 'check.mjs', '--cli', 'reduce', vectorDir], exit: (c: number) => void (exitCode = c) };
  const fakeConsole = { log: (s: string) => void lines.push(...String(s).split('\n')) };
  const run = runInThisContext(`(function (process, console, fs, os, path, fileURLToPath, execFileSync, checkerUrl) {\n${text}\n})`, {
    filename: checkerFile,
  }) as (...a: unknown[]) => void;
  run(fakeProcess, fakeConsole, fs, os, path, (u: string) => u, reduceSync, checkerFile);
  return { lines, exitCode };
}

test('the checker here is shared/conformance/check.mjs, unchanged', (t) => {
  if (!existsSync(shared)) return t.skip('../shared is not checked out');
  assert.equal(readFileSync(checkerFile, 'utf8'), readFileSync(shared, 'utf8'), 'copy shared/conformance/check.mjs to test/conformance/check.mjs again');
});

const vectors = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.replace(/\.jsonl$/, ''))
  .sort();

test('the copied vectors are all there', () => {
  assert.ok(vectors.length >= 43, `only ${vectors.length} vectors in ${dir}`);
});

const result = runChecker(dir);

test('the checker passed every vector', () => {
  assert.equal(result.exitCode, 0, result.lines.join('\n'));
  assert.equal(result.lines.at(-1), `${vectors.length} passed, 0 failed`);
  assert.deepEqual(stderrSeen, [], 'every state file was read back whole');
});

for (const name of vectors) {
  test(`conformance ${name}`, () => {
    const at = result.lines.findIndex((l) => l === `ok   ${name}` || l.startsWith(`FAIL ${name} `));
    assert.ok(at >= 0, `the checker said nothing of ${name}`);
    const said = result.lines[at] ?? '';
    const next = result.lines.slice(at + 1).findIndex((l) => !l.startsWith(' '));
    const why = result.lines.slice(at + 1, next < 0 ? undefined : at + 1 + next);
    assert.equal(said, `ok   ${name}`, [said, ...why].join('\n'));
  });
}
