/**
 * The `initialize` handshake's two halves: what we advertise (derived only from the handlers the client was
 * given, so we never claim what we do not implement) and which answer we can go on with (v1 §1: an agent
 * answers its own latest version when it cannot speak ours). Kept apart from `AcpClient` because it is
 * the one place both protocol versions' shapes meet.
 */
import * as z from 'zod';
import { PROTOCOL_V1, PROTOCOL_V2, type ProtocolVersion } from '../../common/protocol/methods';
import { zInitializeResult, zInitializeResultV2, type ClientCapabilities, type InitializeResult } from '../../common/protocol/requests';
import type { AcpClientOptions } from './clientOptions';
import { elicitationCapabilities } from './elicitations';
import { AcpProtocolError } from './errors';

type Advertised = Pick<AcpClientOptions, 'handlers' | 'terminalAuth' | 'subagents' | 'session' | 'clientInfo'>;

const zVersionOnly = z.looseObject({ protocolVersion: z.number().int().nonnegative() });

/** Exactly what this client implements, derived from the handlers it was given. */
export function clientCapabilities(o: Pick<AcpClientOptions, 'handlers' | 'terminalAuth' | 'subagents' | 'session'>): ClientCapabilities {
  const h = o.handlers;
  const elicitation = elicitationCapabilities(h.elicitation);
  const session = sessionCapabilities(o.session);
  return {
    fs: { readTextFile: h.readTextFile !== undefined, writeTextFile: h.writeTextFile !== undefined },
    terminal: h.terminals !== undefined,
    ...(o.terminalAuth ? { auth: { terminal: true } } : {}),
    ...(elicitation ? { elicitation } : {}),
    ...(session ? { session } : {}),
    ...(o.subagents ? { subagents: {} } : {}),
    // Unstable: plans by id (`plan_update` / `plan_removed`); every client keeps them (the store's planRules.ts).
    plan: {},
  };
}

/** `clientCapabilities.session`: `{}` for each feature the caller shows, nothing when it shows none. */
function sessionCapabilities(f: AcpClientOptions['session']): Record<string, object> | undefined {
  if (!f) return undefined;
  const out: Record<string, object> = {
    ...(f.compaction ? { compaction: {} } : {}),
    ...(f.notices ? { notices: {} } : {}),
    ...(f.booleanConfigOptions ? { configOptions: { boolean: {} } } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

export function initializeParams(asked: ProtocolVersion, o: Advertised): object {
  const v1Fields = { clientCapabilities: clientCapabilities(o), clientInfo: o.clientInfo };
  // Asking for v2 we send both shapes: a v1-only agent answers 1 and reads the v1 fields; v2
  // has no client fs/terminal, so its `capabilities` stay empty. Subagents are baseline in v2 (the draft's
  // ClientCapabilities has no field for them): only the v1 fields say so.
  const elicitation = elicitationCapabilities(o.handlers.elicitation);
  const v2Caps = { ...(o.terminalAuth ? { auth: { terminal: {} } } : {}), ...(elicitation ? { elicitation } : {}) };
  return asked === PROTOCOL_V2 ? { protocolVersion: asked, info: o.clientInfo, capabilities: v2Caps, ...v1Fields } : { protocolVersion: asked, ...v1Fields };
}

/** The agent's answer, checked against the version it chose; `unsupported` runs before the throw for one we cannot speak. */
export function checkedInitializeResult(raw: unknown, asked: ProtocolVersion, unsupported: (version: number) => void): InitializeResult {
  const version = zVersionOnly.safeParse(raw);
  if (!version.success) throw new AcpProtocolError(`invalid initialize result: ${z.prettifyError(version.error)}`);
  // We can only go on with a version we speak and did not exceed.
  const v = version.data.protocolVersion;
  if (v > asked || (v !== PROTOCOL_V1 && v !== PROTOCOL_V2)) {
    unsupported(v);
    throw new AcpProtocolError(`the agent answered protocol version ${v}; this client speaks 1${asked === PROTOCOL_V2 ? ' and 2' : ''}`);
  }
  const parsed = v === PROTOCOL_V2 ? zInitializeResultV2.safeParse(raw) : zInitializeResult.safeParse(raw);
  if (!parsed.success) throw new AcpProtocolError(`invalid initialize result: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
