/**
 * Schema checks of one message's params or result, with the project's zod protocol schemas (the same
 * ones the client parses with, so "invalid" here means "the client would reject it"). Each failure
 * names the zod path, e.g. `result.sessionId: Invalid input: expected string, received undefined`.
 */
import type * as z from 'zod';
import { AgentMethods, AgentMethodsV2, ClientMethods, ProtocolMethods } from '../protocol/methods';
import type { ProtocolVersion } from '../protocol/methods';
import {
  zCancelRequestParams,
  zCreateTerminalParams,
  zEmptyResult,
  zInitializeResult,
  zInitializeResultV2,
  zListSessionsResult,
  zNewSessionResult,
  zPromptResultV2,
  zReadTextFileParams,
  zRequestPermissionParams,
  zSessionStateResult,
  zSetConfigOptionResult,
  zTerminalParams,
  zWriteTextFileParams,
} from '../protocol/requests';
import { zForkSessionResult, zSetSessionTitleResult } from '../protocol/sessionOps';
import { zCompleteElicitationParams, zCreateElicitationParams } from '../protocol/elicitation';

/** Params of what the agent sends (requests and notifications), by method; session/update is parsed apart. */
function paramsSchema(method: string, version: ProtocolVersion): z.ZodType | undefined {
  switch (method) {
    case ClientMethods.sessionRequestPermission:
      // v2 reshapes permission requests (title, subject); our schema is the v1 one.
      return version === 1 ? zRequestPermissionParams : undefined;
    case ClientMethods.fsReadTextFile:
      return zReadTextFileParams;
    case ClientMethods.fsWriteTextFile:
      return zWriteTextFileParams;
    case ClientMethods.terminalCreate:
      return zCreateTerminalParams;
    case ClientMethods.terminalOutput:
    case ClientMethods.terminalWaitForExit:
    case ClientMethods.terminalKill:
    case ClientMethods.terminalRelease:
      return zTerminalParams;
    case ProtocolMethods.cancelRequest:
      return zCancelRequestParams;
    case ClientMethods.elicitationCreate:
      return zCreateElicitationParams;
    case ClientMethods.elicitationComplete:
      return zCompleteElicitationParams;
    default:
      return undefined;
  }
}

/** Results of the client's requests, by method. `session/prompt` v1 is checked by the stop-reason rule. */
function resultSchema(method: string, version: ProtocolVersion): z.ZodType | undefined {
  switch (method) {
    case AgentMethods.initialize:
      return version === 2 ? zInitializeResultV2 : zInitializeResult;
    case AgentMethods.sessionNew:
      return zNewSessionResult;
    case AgentMethods.sessionFork:
      return zForkSessionResult;
    case AgentMethods.sessionSetTitle:
      return zSetSessionTitleResult;
    case AgentMethods.sessionLoad:
    case AgentMethods.sessionResume:
      return zSessionStateResult;
    case AgentMethods.sessionList:
      return zListSessionsResult;
    case AgentMethods.sessionSetConfigOption:
      return zSetConfigOptionResult;
    case AgentMethods.sessionPrompt:
      return version === 2 ? zPromptResultV2 : undefined;
    case AgentMethods.authenticate:
    case AgentMethods.logout:
    case AgentMethods.sessionSetMode:
    case AgentMethods.sessionClose:
    case AgentMethods.sessionDelete:
    case AgentMethods.sessionArchive:
    case AgentMethods.sessionUnarchive:
    case AgentMethodsV2.authLogin:
    case AgentMethodsV2.authLogout:
      return zEmptyResult;
    default:
      return undefined;
  }
}

function describe(prefix: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${prefix}: invalid`;
  return `${[prefix, ...issue.path.map(String)].join('.')}: ${issue.message}`;
}

/** `null` when valid (or when there is no schema for the method); otherwise the first issue with its path. */
export function checkParams(method: string, params: unknown, version: ProtocolVersion): string | null {
  const schema = paramsSchema(method, version);
  if (!schema) return null;
  const r = schema.safeParse(params);
  return r.success ? null : describe('params', r.error);
}

export function checkResult(method: string, result: unknown, version: ProtocolVersion): string | null {
  const schema = resultSchema(method, version);
  if (!schema) return null;
  const r = schema.safeParse(result);
  return r.success ? null : describe('result', r.error);
}
