/**
 * The live conformance check: a scripted session against a real agent process — initialize,
 * session/new, a prompt, a second prompt cancelled mid-turn, set_mode / set_config_option when
 * offered, session/load or resume when advertised, and probes of session/list, resume, fork and close
 * (also when not advertised, as the registry's protocol matrix does). Every message goes through the
 * rule engine as it arrives; the result adds what the agent advertised versus what it did.
 *
 * The agent works in a scratch directory (created here unless `cwd` is given); its fs requests are
 * confined to that directory and permission requests are approved, so the turn exercises its tools.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConformanceChecker, SKIPPED_LINE_NOTE } from '../../common/conformance';
import type { Finding, ProbeRow } from '../../common/conformance';
import type { AgentConfig } from '../../common/config/settings';
import { AgentMethods, ErrorCodes, PROTOCOL_V1, PROTOCOL_V2 } from '../../common/protocol/methods';
import type { ProtocolVersion } from '../../common/protocol/methods';
import type { NewSessionResult } from '../../common/protocol/requests';
import { connectAgent } from '../acp/connectAgent';
import type { AgentLink, ConnectAgent } from '../acp/agentLink';
import { AcpRequestError } from '../acp/errors';
import { cwdFiles, cwdGate, nodeReadTextFile, nodeWriteTextFile, policyPermission } from '../acp/nodeHandlers';
import { NodeTerminalHost } from '../terminals';

export interface LiveCheckOptions {
  readonly agent: AgentConfig;
  readonly protocolVersion?: ProtocolVersion;
  /** Working directory for the session; a scratch directory (removed afterwards) when omitted. */
  readonly cwd?: string;
  /** The whole check's time budget. */
  readonly timeoutMs?: number;
  /** How long the agent may stay silent at the end before the check stops listening for late updates. */
  readonly quietMs?: number;
  readonly onProgress?: (step: string) => void;
  /** Another way to reach the agent (tests: an in-process agent). */
  readonly connect?: ConnectAgent;
}

interface CaptureLine {
  readonly seq: number;
  readonly dir: 'client->agent' | 'agent->client' | 'note';
  readonly msg: unknown;
}

export interface LiveCheckResult {
  readonly findings: readonly Finding[];
  readonly records: readonly CaptureLine[];
  readonly probes: readonly ProbeRow[];
  readonly protocolVersion: number;
  readonly agentInfo: string;
  /** Set when the script could not finish (agent exited, auth required, timeout…). */
  readonly stopped: string | undefined;
}

const PROMPT = 'Say hello in one short sentence, then read a file of this workspace.';
const CANCEL_PROMPT = 'Count from 1 to 200, one number per line, explaining each number.';

export async function runLiveCheck(o: LiveCheckOptions): Promise<LiveCheckResult> {
  const scratch = o.cwd === undefined;
  const cwd = o.cwd ?? mkdtempSync(path.join(tmpdir(), 'acp-check-'));
  if (scratch) writeFileSync(path.join(cwd, 'notes.txt'), 'A file for the agent to read.\n');
  const progress = o.onProgress ?? (() => undefined);
  const checker = new ConformanceChecker({ protocolVersion: o.protocolVersion ?? PROTOCOL_V1 });
  const records: CaptureLine[] = [];
  const probes: ProbeRow[] = [];
  let lastActivity: () => void = () => undefined;
  const record = (dir: CaptureLine['dir'], msg: unknown) => {
    const seq = records.length + 1;
    records.push({ seq, dir, msg });
    if (dir === 'note') checker.observeNote(msg as Record<string, unknown>, seq);
    else checker.observe(dir, msg, seq);
    lastActivity();
  };
  const gate = cwdGate(cwd, false);
  const files = cwdFiles(cwd, { outside: false, configWrites: false });
  const terminals = new NodeTerminalHost({
    defaultCwd: cwd,
    admitCwd: async (dir) => {
      await gate('terminal', dir);
    },
  });
  const turnUpdates = new Set<() => void>();
  let link: AgentLink | undefined;
  let stopped: string | undefined;
  const timer = setTimeout(() => {
    stopped ??= `timed out after ${Math.round((o.timeoutMs ?? 120_000) / 1000)} s`;
    link?.dispose();
  }, o.timeoutMs ?? 120_000);
  try {
    progress('starting the agent');
    link = await (o.connect ?? connectAgent())({
      agent: o.agent,
      cwd,
      protocolVersion: o.protocolVersion ?? PROTOCOL_V1,
      handlers: {
        requestPermission: policyPermission('all'),
        readTextFile: (p) => nodeReadTextFile(p, files),
        writeTextFile: (p) => nodeWriteTextFile(p, files),
        terminals,
      },
      tap: (dir, msg) => {
        record(dir, msg);
        if (dir === 'agent->client') for (const f of turnUpdates) f();
      },
      log: () => undefined,
      onInvalidLine: (text, reason) => record('note', { text: SKIPPED_LINE_NOTE, reason, raw: text }),
      onStderr: () => undefined,
    });
    const live = link;
    live.onExit((reason) => (stopped ??= reason));
    const client = live.client;

    progress('initialize');
    const init = await client.initialize();
    const caps = client.agentCapabilities ?? {};
    probes.push({ feature: 'initialize', advertised: null, outcome: `protocol ${init.protocolVersion} (asked ${o.protocolVersion ?? PROTOCOL_V1})` });
    probes.push({
      feature: 'authentication',
      advertised: client.authMethods.length > 0,
      outcome: client.authMethods.map((m) => `${m.id} (${m.type ?? 'agent'})`).join(', ') || 'none',
    });

    progress('session/new');
    let session: NewSessionResult;
    try {
      session = await client.newSession({ cwd, mcpServers: [] });
      probes.push({ feature: 'session/new', advertised: null, outcome: 'supported' });
    } catch (e) {
      probes.push({ feature: 'session/new', advertised: null, outcome: outcomeOf(e) });
      stopped ??=
        e instanceof AcpRequestError && e.code === ErrorCodes.authRequired
          ? 'session/new needs authentication: sign in first, then run the check again'
          : `session/new failed: ${errorText(e)}`;
      return await finish();
    }
    const sid = session.sessionId;

    progress('a prompt');
    const first = await client.prompt(sid, [{ type: 'text', text: PROMPT }]);
    probes.push({ feature: 'session/prompt', advertised: null, outcome: `stopReason ${first.stopReason}` });

    progress('a prompt cancelled mid-turn');
    let cancelled = false;
    const cancelOnFirstUpdate = () => {
      if (cancelled) return;
      cancelled = true;
      turnUpdates.delete(cancelOnFirstUpdate);
      queueMicrotask(() => client.cancel(sid));
    };
    turnUpdates.add(cancelOnFirstUpdate);
    const second = await client.prompt(sid, [{ type: 'text', text: CANCEL_PROMPT }]);
    turnUpdates.delete(cancelOnFirstUpdate);
    probes.push({
      feature: 'session/cancel',
      advertised: null,
      outcome: cancelled ? `stopReason ${second.stopReason}` : `not tested: the turn ended (${second.stopReason}) before any update`,
    });

    const modes = session.modes?.availableModes ?? [];
    if (session.modes && modes.length > 0) {
      progress('session/set_mode');
      probes.push({ feature: 'session/set_mode', advertised: true, outcome: await attempt(() => client.setMode(sid, session.modes!.currentModeId)) });
    }
    const option = (session.configOptions ?? []).find((c) => c.type === 'select' && typeof c.currentValue === 'string');
    if (option) {
      progress('session/set_config_option');
      probes.push({ feature: 'session/set_config_option', advertised: true, outcome: await attempt(() => client.setConfigOption(sid, option.id, option.currentValue as string)) });
    }
    if (caps.loadSession === true) {
      progress('session/load');
      probes.push({ feature: 'session/load', advertised: true, outcome: await attempt(() => client.loadSession({ sessionId: sid, cwd, mcpServers: [] })) });
    } else {
      const why = init.protocolVersion === PROTOCOL_V2 ? 'not part of protocol 2 (resume replays instead)' : 'not probed (a client MUST NOT call it)';
      probes.push({ feature: 'session/load', advertised: false, outcome: why });
    }
    const sc = caps.sessionCapabilities ?? {};
    progress('session/resume');
    probes.push({
      feature: 'session/resume',
      advertised: !!sc.resume,
      outcome: await attempt(() => client.probe(AgentMethods.sessionResume, { sessionId: sid, cwd, mcpServers: [] })),
    });
    progress('session/list');
    probes.push({ feature: 'session/list', advertised: !!sc.list, outcome: await attempt(() => client.probe(AgentMethods.sessionList, {})) });
    progress('session/fork');
    probes.push({ feature: 'session/fork', advertised: !!sc.fork, outcome: await attempt(() => client.probe(AgentMethods.sessionFork, { sessionId: sid, cwd, mcpServers: [] })) });
    progress('session/close');
    probes.push({ feature: 'session/close', advertised: !!sc.close, outcome: await attempt(() => client.probe(AgentMethods.sessionClose, { sessionId: sid })) });
    return await finish();
  } catch (e) {
    stopped ??= errorText(e);
    return await finish();
  } finally {
    clearTimeout(timer);
    link?.dispose();
    terminals.dispose();
    if (scratch) rmSync(cwd, { recursive: true, force: true });
  }

  /** Listens for late updates until the agent is quiet, then decides the end-of-capture rules. */
  async function finish(): Promise<LiveCheckResult> {
    if (link && !link.client.isClosed) await quiet(o.quietMs ?? 300);
    checker.finish();
    const used = usedClientMethods(records);
    if (used.length) probes.push({ feature: 'client methods used', advertised: null, outcome: used.join(', ') });
    const info = link?.client.agentInfo;
    return {
      findings: checker.findings(),
      records,
      probes,
      protocolVersion: checker.protocolVersion,
      agentInfo: info ? `${info.title ?? info.name} ${info.version}`.trim() : o.agent.name,
      stopped,
    };
  }

  /** Resolves once no message arrived for `ms` (a CLI grace period for late updates, not a test wait). */
  function quiet(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let t = setTimeout(done, ms);
      function done() {
        lastActivity = () => undefined;
        resolve();
      }
      lastActivity = () => {
        clearTimeout(t);
        t = setTimeout(done, ms);
      };
    });
  }
}

async function attempt(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'supported';
  } catch (e) {
    return outcomeOf(e);
  }
}

function outcomeOf(e: unknown): string {
  if (e instanceof AcpRequestError) {
    if (e.code === ErrorCodes.methodNotFound) return 'method not found';
    if (e.code === ErrorCodes.authRequired) return 'auth required';
    return `error ${e.code}`;
  }
  return `failed: ${errorText(e)}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function usedClientMethods(records: readonly CaptureLine[]): string[] {
  const used = new Set<string>();
  for (const r of records) {
    const m = r.msg;
    if (r.dir === 'agent->client' && typeof m === 'object' && m !== null && 'method' in m && 'id' in m && typeof m.method === 'string') used.add(m.method);
  }
  return [...used].sort();
}
