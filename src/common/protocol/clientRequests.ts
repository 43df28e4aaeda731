/**
 * zod schemas for the requests the agent sends the client: `session/request_permission` (both versions'
 * shapes read as one), `fs/*` and `terminal/*`. Its own file because these are agent input we serve
 * (untrusted; what `agentRequests.ts` checks against), while `requests.ts` holds what we ask the agent.
 * The same policy as `requests.ts`: a strict envelope, tolerant variants.
 */
import * as z from 'zod';
import { zMeta } from './content';
import { optional } from './tolerant';
import { zToolCallPatch, type ToolCallPatch } from './updates';

export const zEnvVariable = z.looseObject({ name: z.string(), value: z.string() });

// ---------------------------------------------------------------- permission

const zPermissionOption = z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() });
export type PermissionOption = z.infer<typeof zPermissionOption>;
const zRequestPermissionV1 = z.looseObject({
  sessionId: z.string(),
  toolCall: zToolCallPatch, // a ToolCallUpdate: the schema of `tool_call_update`
  options: z.array(zPermissionOption),
  _meta: optional(zMeta),
});
/**
 * v2 draft: a `title` (the question to show) and an optional, open `subject`: a `tool_call` (with the
 * ToolCallUpdate), a `command` (`command`, `cwd`, optional `toolCallId`), or a future kind.
 */
const zPermissionSubject = z.looseObject({
  type: z.string(),
  toolCall: optional(zToolCallPatch),
  command: optional(z.string()),
  cwd: optional(z.string()),
  toolCallId: optional(z.string().nullable()),
});
const zRequestPermissionV2 = z.looseObject({
  sessionId: z.string(),
  title: z.string(),
  subject: optional(zPermissionSubject.nullable()),
  options: z.array(zPermissionOption),
  _meta: optional(zMeta.nullable()),
});
/**
 * Both versions' shapes, read as one: the v2 form gets a `toolCall` (the subject's, or one made from
 * the title and the command subject's `toolCallId`) whose `title` is the request's title, so handlers
 * read `toolCall.title` / `toolCall.kind` in either version. The v2 `title` and `subject` are kept.
 */
export const zRequestPermissionParams = z.union([
  zRequestPermissionV1,
  zRequestPermissionV2.transform((p) => {
    const s = p.subject ?? undefined;
    const fromSubject = s?.type === 'tool_call' ? s.toolCall : undefined;
    const toolCall: ToolCallPatch = fromSubject
      ? { ...fromSubject, title: p.title }
      : { toolCallId: s?.toolCallId ?? '', title: p.title, ...(s?.type === 'command' ? { kind: 'execute' } : {}) };
    return { ...p, toolCall, _meta: p._meta ?? undefined };
  }),
]);
export type RequestPermissionParams = z.infer<typeof zRequestPermissionV1> & { readonly title?: string; readonly subject?: z.infer<typeof zPermissionSubject> | null };
const zRequestPermissionOutcome = z.discriminatedUnion('outcome', [
  z.looseObject({ outcome: z.literal('cancelled') }),
  z.looseObject({ outcome: z.literal('selected'), optionId: z.string() }),
]);
export const zRequestPermissionResult = z.looseObject({ outcome: zRequestPermissionOutcome, _meta: optional(zMeta) });
export type RequestPermissionResult = z.infer<typeof zRequestPermissionResult>;

// ---------------------------------------------------------------- fs

export const zReadTextFileParams = z.looseObject({
  sessionId: z.string(),
  path: z.string(),
  line: optional(z.number().int().positive().nullable()),
  limit: optional(z.number().int().nonnegative().nullable()),
  _meta: optional(zMeta),
});
export type ReadTextFileParams = z.infer<typeof zReadTextFileParams>;
/** @public The schema its type is derived from (nothing parses a result we send). */
export const zReadTextFileResult = z.looseObject({ content: z.string(), _meta: optional(zMeta) });
export type ReadTextFileResult = z.infer<typeof zReadTextFileResult>;
export const zWriteTextFileParams = z.looseObject({
  sessionId: z.string(),
  path: z.string(),
  content: z.string(),
  _meta: optional(zMeta),
});
export type WriteTextFileParams = z.infer<typeof zWriteTextFileParams>;

// ---------------------------------------------------------------- terminals

export const zCreateTerminalParams = z.looseObject({
  sessionId: z.string(),
  command: z.string(),
  args: optional(z.array(z.string()).nullable()),
  env: optional(z.array(zEnvVariable).nullable()),
  cwd: optional(z.string().nullable()),
  outputByteLimit: optional(z.number().int().nonnegative().nullable()),
  _meta: optional(zMeta),
});
export type CreateTerminalParams = z.infer<typeof zCreateTerminalParams>;
export const zCreateTerminalResult = z.looseObject({ terminalId: z.string(), _meta: optional(zMeta) });
export type CreateTerminalResult = z.infer<typeof zCreateTerminalResult>;
export const zTerminalParams = z.looseObject({ sessionId: z.string(), terminalId: z.string(), _meta: optional(zMeta) });
export type TerminalParams = z.infer<typeof zTerminalParams>;
export const zTerminalExitStatus = z.looseObject({
  exitCode: optional(z.number().int().nullable()),
  signal: optional(z.string().nullable()),
});
export type TerminalExitStatus = z.infer<typeof zTerminalExitStatus>;
export const zTerminalOutputResult = z.looseObject({
  output: z.string(),
  truncated: z.boolean(),
  exitStatus: optional(zTerminalExitStatus.nullable()),
});
export type TerminalOutputResult = z.infer<typeof zTerminalOutputResult>;
