// `cli run` against the demo agent's /compact (a real subprocess, bundled from the current sources): the run
// advertises session.compaction and session.notices (what its printer shows), the demo agent then sends
// compaction_update / compaction_summary_chunk and a notice, and the printer prints the compaction once per
// state (the repeated completed adds nothing), its streamed summary and the notice. The capture reduces to
// one compaction row and passes the conformance check.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { build } from 'esbuild';
import { parseRunArgs, run } from '../../../src/node/cli/run';
import { MessageStore, textOf } from '../../../src/common/store';
import { ConformanceChecker } from '../../../src/common/conformance';

const root = path.resolve(import.meta.dirname, '../../..');
const ws = mkdtempSync(path.join(tmpdir(), 'cli-run-compact-'));
writeFileSync(path.join(ws, 'notes.txt'), 'hello\n');
const demoJs = path.join(ws, '.demo-agent.js');
before(async () => {
  await build({
    entryPoints: [path.join(root, 'src/node/demoAgent/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: demoJs,
    logLevel: 'error',
  });
});
after(() => rmSync(ws, { recursive: true, force: true }));

it('cli run: the demo agent compacts on /compact; the run prints the row, its summary and the notice', async () => {
  const captured = path.join(ws, 'run.jsonl');
  const o = parseRunArgs(['--cwd', ws, '--grace', '0', '--capture', captured, '--prompt', '/compact', '--', process.execPath, demoJs]);
  assert.ok(typeof o !== 'string', String(o));
  let out = '';
  let err = '';
  assert.equal(
    await run(
      o,
      (s) => (out += s),
      (s) => (err += s),
    ),
    0,
    err,
  );
  const turn = out.slice(out.indexOf('[user] /compact'));
  assert.match(
    turn,
    /^\[user\] \/compact\n\[compaction\] in progress\n\[compaction summary\] ## What we did\n[^]*Go on where we stopped\.\n\[compaction\] completed\n\[notice info\] Conversation compacted — The context went from 96% to 6% full/,
  );
  assert.equal(turn.split('[compaction] completed').length - 1, 1, 'the repeated completed prints nothing');

  const lines = readFileSync(captured, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const init = lines
    .map((l) => JSON.parse(l) as { msg?: { method?: string; params?: { clientCapabilities?: Record<string, unknown> } } })
    .find((r) => r.msg?.method === 'initialize');
  assert.deepEqual(init?.msg?.params?.clientCapabilities?.['session'], { compaction: {}, notices: {} }, 'no configOptions.boolean: a run sets no options');
  const store = new MessageStore();
  const checker = new ConformanceChecker();
  lines.forEach((l, i) => {
    store.ingestLine(l, i + 1);
    checker.observeRecord(JSON.parse(l) as { dir: string }, i + 1);
  });
  checker.finish();
  const rows = store.sessions()[0]?.entries.filter((e) => e.kind === 'compaction') ?? [];
  assert.equal(rows.length, 1);
  assert.ok(rows[0]?.kind === 'compaction' && rows[0].status === 'completed' && textOf(rows[0].summary).startsWith('## What we did'));
  assert.deepEqual(
    store.notices(store.sessions()[0]?.sessionId ?? null).map((n) => n.title),
    ['Conversation compacted'],
  );
  assert.deepEqual([...checker.findings()], []);
});
