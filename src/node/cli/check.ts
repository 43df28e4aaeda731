/**
 * `cli check`: the agent conformance check, on a recorded capture or on a live agent.
 *
 *   check [--json] [--junit FILE] [--sarif FILE] CAPTURE.jsonl
 *   check [--json] [--junit FILE] [--sarif FILE] [--protocol 1|2] [--cwd DIR] [--timeout SEC] [--capture FILE] -- AGENT_CMD [ARGS...]
 *   check [...the same] --url URL     (an agent over WebSocket or Streamable HTTP; token: ACP_CHAT_TOKEN)
 *
 * `--junit` and `--sarif` also write the findings as JUnit XML and SARIF 2.1.0 for an agent author's CI.
 *
 * Exit status: 0 when no finding is an error, 1 otherwise (or when the live script could not run),
 * 2 on bad usage or an unreadable capture. Agent text is escaped before it reaches the terminal
 * (`terminalSafe` / `terminalSafeJson`). Relative paths are read where the user runs the command.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkCaptureText, escapeControl, hasErrors, toJson, toJUnit, toSarif, toText } from '../../common/conformance';
import type { Finding, ReportTarget } from '../../common/conformance';
import { PACKAGE_HOMEPAGE, PACKAGE_VERSION } from './package';
import { PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import type { ProtocolVersion } from '../../common/protocol/methods';
import { terminalSafeJson } from '../../common/untrusted';
import { runLiveCheck } from '../conformance/liveCheck';
import { parse, resolveAgentCommand, splitAtDashDash } from './args';
import type { LiveCheckResult } from '../conformance/liveCheck';
import { MAX_NESTING } from '../../common/util/depth';
import { agentOrigin } from '../../common/config/agentUrl';
import { connectAgent } from '../acp/connectAgent';
import { cliHeaders } from './remoteEndpoint';

export const usage = [
  'check [--json] [--junit FILE] [--sarif FILE] CAPTURE.jsonl',
  'check [--json] [--junit FILE] [--sarif FILE] [--protocol 1|2] [--cwd DIR] [--timeout SEC] [--capture FILE] (-- AGENT_CMD [ARGS...] | --url URL)',
  '    check an agent against the ACP schemas and RFDs (exit 0: no errors, 1: errors, 2: usage);',
  '    --junit / --sarif also write the findings as JUnit XML / SARIF 2.1.0 for CI; --url checks an agent over',
  '    wss:// or https:// (ws:// and http:// only to this machine), token from ACP_CHAT_TOKEN',
].join('\n');

export interface CheckOptions {
  json: boolean;
  protocol: ProtocolVersion;
  cwd: string | undefined;
  timeoutSec: number;
  capture: string | undefined;
  junit: string | undefined;
  sarif: string | undefined;
  file: string | undefined;
  agent: string[];
  /** A live check of an agent reached by URL (`--url`). */
  url?: string;
}

const checkOptions = {
  json: { type: 'boolean', default: false },
  protocol: { type: 'string' },
  cwd: { type: 'string' },
  timeout: { type: 'string' },
  capture: { type: 'string' },
  junit: { type: 'string' },
  sarif: { type: 'string' },
  url: { type: 'string' },
} as const;

/** Parses `check`'s arguments; `from` is where the user typed them (relative paths are read from there). */
export function parseCheckArgs(args: readonly string[], from = process.cwd()): CheckOptions | string {
  const { own, rest } = splitAtDashDash(args);
  const r = parse(own, checkOptions, true);
  if (typeof r === 'string') return r;
  const { values, positionals } = r;
  if (values.protocol !== undefined && values.protocol !== '1' && values.protocol !== '2') return `--protocol must be 1 or 2, not ${values.protocol}`;
  const timeoutSec = values.timeout === undefined ? 120 : Number(values.timeout);
  if (!(timeoutSec > 0)) return `--timeout must be a positive number of seconds, not ${values.timeout}`;
  if (values.url !== undefined) {
    if (rest !== undefined || positionals.length) return 'give --url, a capture file or -- AGENT_CMD: one of them';
  } else if (rest !== undefined) {
    if (rest.length === 0) return 'missing agent command after --';
    if (positionals.length) return `unexpected argument ${positionals[0]} (a capture file or "-- AGENT_CMD", not both)`;
  } else {
    if (positionals.length !== 1) return positionals.length ? 'check takes one capture file' : 'give a capture file, or -- AGENT_CMD [ARGS...]';
    if (values.protocol !== undefined || values.cwd !== undefined || values.capture !== undefined || values.timeout !== undefined)
      return '--protocol, --cwd, --timeout and --capture apply to a live check (-- AGENT_CMD)';
  }
  return {
    json: values.json === true,
    protocol: values.protocol === '2' ? PROTOCOL_V2 : PROTOCOL_V1,
    cwd: values.cwd === undefined ? undefined : path.resolve(from, values.cwd),
    timeoutSec,
    capture: values.capture === undefined ? undefined : path.resolve(from, values.capture),
    junit: values.junit === undefined ? undefined : path.resolve(from, values.junit),
    sarif: values.sarif === undefined ? undefined : path.resolve(from, values.sarif),
    file: positionals[0] === undefined ? undefined : path.resolve(from, positionals[0]),
    agent: rest === undefined ? [] : resolveAgentCommand(rest, from),
    ...(values.url !== undefined ? { url: values.url } : {}),
  };
}

export async function main(args: string[]): Promise<number> {
  const o = parseCheckArgs(args);
  if (typeof o === 'string') {
    process.stderr.write(`check: ${o}\n\nusage: ${usage}\n`);
    return 2;
  }
  return check(
    o,
    (s) => process.stdout.write(s),
    (s) => process.stderr.write(s),
  );
}

export async function check(o: CheckOptions, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (o.file !== undefined) return checkFile(o, o.file, out, err);
  const [command, ...args] = o.agent as [string, ...string[]];
  const result = await runLiveCheck({
    // Relative paths in the command were made absolute where the user typed them; the agent runs in the session's cwd.
    agent:
      o.url !== undefined
        ? { id: 'cli', name: agentOrigin({ url: o.url }) ?? o.url, command: '', args: [], env: {}, url: o.url }
        : { id: 'cli', name: path.basename(command), command, args, env: {} },
    connect: connectAgent(async () => cliHeaders()),
    protocolVersion: o.protocol,
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
    timeoutMs: o.timeoutSec * 1000,
    onProgress: o.json ? undefined : (step) => err(`check: ${step}\n`),
  });
  if (o.capture) writeFileSync(o.capture, result.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeCiReports(o, result.findings, {
    subject: o.url !== undefined ? (agentOrigin({ url: o.url }) ?? '') : o.agent.join(' '),
    ...(o.capture ? { captureUri: reportPath(o.capture) } : {}),
    lines: result.records.length,
  });
  if (o.json) {
    out(
      terminalSafeJson(
        toJson(result.findings, result.records.length, {
          agent: result.agentInfo,
          protocolVersion: result.protocolVersion,
          probes: result.probes,
          stopped: result.stopped ?? null,
        }),
      ) + '\n',
    );
  } else {
    out(liveText(result));
  }
  return hasErrors(result.findings) || result.stopped !== undefined ? 1 : 0;
}

/**
 * A path as CI shows it, as the URI reference SARIF requires: relative to where the check runs (the
 * repository, in CI) when inside it, each segment percent-encoded (a space or `#` in a folder name is not a
 * URI character); else a file URI. `p` is the platform's path module.
 */
export function reportPath(file: string, from = process.cwd(), p: path.PlatformPath = path): string {
  const rel = p.relative(from, file);
  const windows = p === path.win32;
  return rel !== '' && !rel.startsWith('..') && !p.isAbsolute(rel)
    ? rel.split(p.sep).map(encodeURIComponent).join('/')
    : pathToFileURL(file, { windows } as Parameters<typeof pathToFileURL>[1]).href;
}

function writeCiReports(o: CheckOptions, findings: readonly Finding[], target: ReportTarget): void {
  if (o.junit) writeFileSync(o.junit, toJUnit(findings, target));
  if (o.sarif) writeFileSync(o.sarif, toSarif(findings, target, { name: 'acp-chat check', version: PACKAGE_VERSION, informationUri: PACKAGE_HOMEPAGE }));
}

function checkFile(o: CheckOptions, file: string, out: (s: string) => void, err: (s: string) => void): number {
  const json = o.json;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    err(`check: cannot read ${escapeControl(file)}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const r = checkCaptureText(text);
  if (r.tooDeep.length) {
    err(`check: ${escapeControl(file)}: line(s) ${r.tooDeep.slice(0, 10).join(', ')} nest deeper than ${MAX_NESTING} levels and cannot be checked\n`);
    return 2;
  }
  if (r.records === 0) {
    err(`check: ${escapeControl(file)} holds no capture records ({"dir", "msg"} per line)\n`);
    return 2;
  }
  if (r.skipped.length) err(`check: skipped ${r.skipped.length} line(s) that are not capture records: ${r.skipped.slice(0, 10).join(', ')}${r.skipped.length > 10 ? ', …' : ''}\n`);
  out(json ? terminalSafeJson(toJson(r.findings, r.records, { protocolVersion: r.protocolVersion })) + '\n' : toText(r.findings, r.records));
  writeCiReports(o, r.findings, { subject: reportPath(file), captureUri: reportPath(file), lines: r.records });
  return hasErrors(r.findings) ? 1 : 0;
}

function liveText(r: LiveCheckResult): string {
  const lines = [`agent: ${escapeControl(r.agentInfo)} (protocol ${r.protocolVersion})`, '', 'advertised vs did:'];
  const width = Math.max(...r.probes.map((p) => p.feature.length));
  for (const p of r.probes) {
    const adv = p.advertised === null ? '-  ' : p.advertised ? 'yes' : 'no ';
    lines.push(`  ${p.feature.padEnd(width)}  advertised ${adv}  ${escapeControl(p.outcome)}`);
  }
  if (r.stopped) lines.push('', `the check stopped early: ${escapeControl(r.stopped)}`);
  lines.push('', toText(r.findings, r.records.length));
  return lines.join('\n');
}
