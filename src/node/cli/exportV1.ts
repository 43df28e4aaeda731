/**
 * `export-v1 [--out FILE] CAPTURE.jsonl`: turns a capture of a v2-draft connection into a v1 capture
 * (an initialize exchange at protocol 1, then each session's updates in v1 form, via `exportV1`), so
 * v1-only tools and `reduce` can read it. Whatever v1 cannot express (patch-only upserts, cleared
 * fields, v2 diffs, unknown content, v2-only update kinds) fails the whole export with exit code 1 and
 * one line per problem naming the capture line: nothing is dropped silently, nothing is half-written.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { AgentMethods, ClientMethods, PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import { exportV1 } from '../../common/store/v1Export';
import { terminalSafe, terminalSafeJson } from '../../common/untrusted';
import { isRecord } from '../../common/util/guards';
import { errorText } from '../../common/util/errors';
import { parse } from './args';

export const usage = 'export-v1 [--out FILE] CAPTURE.jsonl   rewrite a v2-draft capture as a v1 capture; fails (exit 1) on what v1 cannot express';

/** Problems listed one per line; past this many, the rest are counted (a 600 KB file once made 6.8 MB of stderr). */
const SHOWN_PROBLEMS = 20;

interface SessionUpdates {
  readonly updates: unknown[];
  /** Capture line of each update, for error messages. */
  readonly lines: number[];
}

export async function main(args: string[]): Promise<number> {
  const r = parse(args, { out: { type: 'string' } }, true);
  if (typeof r === 'string') return usageError(r);
  const [capture, extra] = r.positionals;
  if (extra !== undefined) return usageError(`unexpected argument '${extra}'`);
  if (capture === undefined) return usageError('missing CAPTURE.jsonl');
  let text: string;
  try {
    text = readFileSync(capture, 'utf8');
  } catch (err) {
    return usageError(`cannot read ${capture}: ${errorText(err)}`);
  }

  const sessions = new Map<string, SessionUpdates>();
  const problems: string[] = [];
  let version: number | undefined;
  let initId: unknown;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1}: not JSON`);
      return;
    }
    if (!isRecord(rec) || !isRecord(rec.msg)) return;
    const msg = rec.msg;
    // The version the connection negotiated: the answer to the first initialize request.
    if (rec.dir === 'client->agent' && msg.method === AgentMethods.initialize && initId === undefined) initId = msg.id;
    if (
      version === undefined &&
      initId !== undefined &&
      rec.dir === 'agent->client' &&
      msg.id === initId &&
      isRecord(msg.result) &&
      typeof msg.result.protocolVersion === 'number'
    ) {
      version = msg.result.protocolVersion;
    }
    if (rec.dir !== 'agent->client' || msg.method !== ClientMethods.sessionUpdate || !isRecord(msg.params)) return;
    const { sessionId, update } = msg.params;
    if (typeof sessionId !== 'string') {
      problems.push(`line ${i + 1}: session/update without a sessionId`);
      return;
    }
    let s = sessions.get(sessionId);
    if (!s) sessions.set(sessionId, (s = { updates: [], lines: [] }));
    s.updates.push(update);
    s.lines.push(i + 1);
  });
  if (version !== undefined && version !== PROTOCOL_V2) return failed([`the capture negotiated protocol ${version}, not the v2 draft: nothing to export`]);

  const out: string[] = [
    JSON.stringify({ dir: 'client->agent', msg: { jsonrpc: '2.0', id: 0, method: AgentMethods.initialize, params: { protocolVersion: PROTOCOL_V1 } } }),
    JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: PROTOCOL_V1 } } }),
  ];
  for (const [sessionId, s] of sessions) {
    const r = exportV1(s.updates);
    if (!r.ok) {
      for (const e of r.errors) problems.push(`line ${s.lines[e.index] ?? '?'} (session ${sessionId}): ${e.message}`);
      continue;
    }
    for (const update of r.updates) out.push(JSON.stringify({ dir: 'agent->client', msg: { jsonrpc: '2.0', method: ClientMethods.sessionUpdate, params: { sessionId, update } } }));
  }
  if (problems.length > 0) return failed(problems);

  // Agent text may hold C1 controls and bidi marks JSON leaves raw: escaped, for a terminal and for line-oriented readers (the same JSON).
  const body = terminalSafeJson(out.join('\n')) + '\n';
  const file = r.values.out;
  if (file === undefined) {
    process.stdout.write(body);
    return 0;
  }
  if (isDirectory(file)) return usageError(`--out ${file} is a directory; name the file to write`);
  // Write-then-rename: an interrupted export never leaves half a file, and a failed one leaves none.
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, body);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    return usageError(`cannot write --out ${file}: ${errorText(err)}`);
  }
  return 0;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function failed(problems: readonly string[]): number {
  // Problems quote agent data (ids, types): print them inert.
  const shown = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  ${p}`);
  if (problems.length > SHOWN_PROBLEMS) shown.push(`  … and ${problems.length - SHOWN_PROBLEMS} more`);
  process.stderr.write(
    terminalSafe(`export-v1: v1 cannot express this capture (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing written\n${shown.join('\n')}\n`),
  );
  return 1;
}

function usageError(message: string): number {
  process.stderr.write(terminalSafe(`export-v1: ${message}\n${usage}\n`));
  return 2;
}
