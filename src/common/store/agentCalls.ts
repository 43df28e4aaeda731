/**
 * What our own calls to the agent do to the transcript: the client->agent requests (session/new, prompt,
 * load, resume, fork, set_mode, set_config_option, steering, set_title, initialize) when they are sent and
 * when they are answered. Its own file because these rules read the store only through `CallDeps` (the
 * sessions and the negotiated version): the store keeps the traffic's bookkeeping, the agent's requests to
 * us and the updates.
 */
import { AgentMethods, PROTOCOL_V2 } from '../protocol/methods';
import { zContentBlock } from '../protocol/content';
import { steered, zSteeringResult } from '../protocol/steering';
import { zAvailableCommandsUpdate, zConfigOption, zSessionModeState } from '../protocol/updates';
import { entriesBefore, forkAtMessageOf } from '../rewind/forkAtMessage';
import type { Action } from './actions';
import type { PendingRequest } from './persisted';
import type { Session } from './session';
import type { Step } from './step';
import { OPENS_SESSION } from './sessionScope';
import { setupOfRequest, type SessionSetup } from './sessionSetup';
import {
  zStoreInitializeResult,
  zStoreNewSessionResult,
  zStorePromptParams,
  zStorePromptResult,
  zStoreSessionResult,
  zStoreSetModeParams,
  zStoreSetSessionTitleResult,
} from './wireShapes';

/** The store as these rules see it. */
export interface CallDeps {
  /** The version the connection's `initialize` negotiated (new sessions take it). */
  protocolVersion(): number;
  negotiated(version: number): void;
  /** The session, created (and reported) if it is new. */
  sessionFor(sessionId: string, step: Step): Session;
  existing(sessionId: string): Session | undefined;
  apply(sessionId: string, action: Action, step: Step): void;
}

/** A request we sent: what it shows at once (a prompt), and what its answer will need (`pending`). */
export function agentCallSent(c: CallDeps, method: string, params: unknown, sessionId: string | null, pending: PendingRequest, step: Step): void {
  if (OPENS_SESSION.has(method)) {
    const setup = setupOfRequest(params);
    if (setup) pending.setup = setup;
  }
  switch (method) {
    case AgentMethods.sessionPrompt: {
      const p = zStorePromptParams.safeParse(params);
      if (!p.success) {
        step.diagnostic('warning', `session/prompt with malformed params: not shown`);
        break;
      }
      const content = p.data.prompt.flatMap((b) => {
        const r = zContentBlock.safeParse(b);
        return r.success ? [r.data] : [];
      });
      c.apply(p.data.sessionId, { kind: 'local_prompt', content }, step);
      const s = c.existing(p.data.sessionId);
      const st = s?.state();
      pending.localKey = st ? (st.entries[st.entries.length - 1]?.key ?? null) : null;
      break;
    }
    case AgentMethods.sessionSteering: {
      const p = zStorePromptParams.safeParse(params);
      if (p.success) pending.steered = p.data.prompt;
      break;
    }
    case AgentMethods.sessionLoad:
    case AgentMethods.sessionResume:
      if (sessionId === null) break;
      // Load/resume (re)attach the session to this connection and its protocol version.
      c.sessionFor(sessionId, step).protocolVersion = c.protocolVersion();
      if (method === AgentMethods.sessionLoad) c.apply(sessionId, { kind: 'load_started' }, step);
      break;
    case AgentMethods.sessionFork: {
      const at = forkAtMessageOf(params);
      if (at !== undefined) pending.forkAt = at;
      break;
    }
    case AgentMethods.sessionSetMode: {
      const p = zStoreSetModeParams.safeParse(params);
      if (p.success) pending.modeId = p.data.modeId;
      break;
    }
  }
}

/** The agent answered a request we sent. */
export function agentCallAnswered(c: CallDeps, req: PendingRequest, outcome: { ok: true; result: unknown } | { ok: false }, step: Step): void {
  const result = outcome.ok ? outcome.result : undefined;
  if (outcome.ok && req.setup) accepted(c, req, result, req.setup, step);
  switch (req.method) {
    case AgentMethods.initialize: {
      const r = zStoreInitializeResult.safeParse(result);
      if (r.success) c.negotiated(r.data.protocolVersion);
      return;
    }
    case AgentMethods.sessionNew: {
      const r = zStoreNewSessionResult.safeParse(result);
      if (!r.success) return;
      const s = c.sessionFor(r.data.sessionId, step);
      s.protocolVersion = c.protocolVersion();
      sessionResult(c, r.data.sessionId, result, step);
      return;
    }
    case AgentMethods.sessionSteering: {
      // Shown where the running turn took it, as the prompt of a session/prompt is shown where it was sent.
      const r = zSteeringResult.safeParse(result);
      if (!r.success || !steered(r.data) || !req.steered || req.sessionId === null) return;
      const content = req.steered.flatMap((b) => {
        const c = zContentBlock.safeParse(b);
        return c.success ? [c.data] : [];
      });
      c.apply(req.sessionId, { kind: 'local_prompt', content }, step);
      return;
    }
    case AgentMethods.sessionSetTitle: {
      // The title as the agent stored it; agents need not also send a session_info_update.
      const r = zStoreSetSessionTitleResult.safeParse(result);
      if (r.success && req.sessionId !== null && c.existing(req.sessionId) !== undefined) c.apply(req.sessionId, { kind: 'session_info', info: { title: r.data.title } }, step);
      return;
    }
    case AgentMethods.sessionFork: {
      const r = zStoreNewSessionResult.safeParse(result);
      if (!r.success || r.data.sessionId === req.sessionId) return;
      const source = req.sessionId === null ? undefined : c.existing(req.sessionId);
      c.sessionFor(r.data.sessionId, step).protocolVersion = c.protocolVersion();
      if (source) c.apply(r.data.sessionId, { kind: 'forked', entries: entriesBefore(source.state().entries, req.forkAt) }, step);
      sessionResult(c, r.data.sessionId, result, step);
      return;
    }
    case AgentMethods.sessionLoad:
      if (req.sessionId === null) return;
      // Some agents answer session/load first and stream the replay afterwards (Gemini CLI sends one
      // chunk, the response, then the rest of the history): after a successful load the replay window
      // stays open until the next prompt (session.ts ends it there); a failed load replays nothing.
      if (!outcome.ok) c.apply(req.sessionId, { kind: 'load_ended' }, step);
      if (outcome.ok) sessionResult(c, req.sessionId, result, step);
      return;
    case AgentMethods.sessionResume:
      if (req.sessionId !== null && outcome.ok) sessionResult(c, req.sessionId, result, step);
      return;
    case AgentMethods.sessionSetMode:
      if (outcome.ok && req.sessionId !== null && req.modeId !== null) c.apply(req.sessionId, { kind: 'mode_set', modeId: req.modeId }, step);
      return;
    case AgentMethods.sessionSetConfigOption:
      if (outcome.ok && req.sessionId !== null) sessionResult(c, req.sessionId, result, step);
      return;
    case AgentMethods.sessionPrompt: {
      if (req.sessionId === null) return;
      const r = zStorePromptResult.safeParse(result);
      const messageId = step.version === PROTOCOL_V2 && r.success ? (r.data.messageId ?? null) : null;
      c.apply(req.sessionId, { kind: 'prompt_answered', localKey: req.localKey, messageId }, step);
      return;
    }
  }
}

/** The session a session-opening call opened (its own for load/resume, the answer's for new/fork) records its setup. */
function accepted(c: CallDeps, req: PendingRequest, result: unknown, setup: SessionSetup, step: Step): void {
  const r = zStoreNewSessionResult.safeParse(result);
  const sid = req.method === AgentMethods.sessionNew || req.method === AgentMethods.sessionFork ? (r.success ? r.data.sessionId : null) : req.sessionId;
  if (sid === null) return;
  c.sessionFor(sid, step);
  c.apply(sid, { kind: 'session_setup', setup }, step);
}

function sessionResult(c: CallDeps, sessionId: string, result: unknown, step: Step): void {
  const r = zStoreSessionResult.safeParse(result);
  if (!r.success) return;
  const modes = r.data.modes === undefined || r.data.modes === null ? null : zSessionModeState.safeParse(r.data.modes);
  const options = Array.isArray(r.data.configOptions)
    ? r.data.configOptions.flatMap((o) => {
        const c = zConfigOption.safeParse(o);
        return c.success ? [c.data] : [];
      })
    : null;
  if (modes && !modes.success) step.diagnostic('warning', `malformed 'modes' in a session result ignored`);
  const m = modes && modes.success ? modes.data : null;
  if (m || options) c.apply(sessionId, { kind: 'session_result', modes: m, configOptions: options }, step);
  // v2 draft session results also carry the available commands (v1 sends them as an update only).
  if (Array.isArray(r.data.availableCommands)) {
    const cmds = zAvailableCommandsUpdate.safeParse({ availableCommands: r.data.availableCommands });
    if (cmds.success) c.apply(sessionId, { kind: 'available_commands', commands: cmds.data.availableCommands }, step);
  }
}
