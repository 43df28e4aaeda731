/**
 * `elicitation/create` (agent -> client request) and `elicitation/complete` (agent -> client
 * notification), stable in ACP v1 and unchanged in shape in the v2 draft.
 *
 * The envelope is strict where the client acts on it (message, mode, scope, the URL-mode id and URL);
 * `requestedSchema` is kept as the agent sent it (a loose object) and read by `common/elicitation/form.ts`,
 * which says exactly which part of it is outside the restricted JSON Schema subset.
 */
import * as z from 'zod';
import { zMeta } from './content';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** Scope: a session (optionally a tool call in it) or, before any session exists, a JSON-RPC request. */
const zScopeFields = {
  sessionId: optional(z.string()),
  toolCallId: optional(z.string().nullable()),
  requestId: optional(z.union([z.string(), z.number()]).nullable()),
};

export const zCreateElicitationParams = z
  .looseObject({
    message: z.string(),
    mode: z.string(),
    requestedSchema: optional(z.looseObject({})),
    elicitationId: optional(z.string()),
    url: optional(z.string()),
    ...zScopeFields,
    _meta: optional(zMeta.nullable()),
  })
  .refine((p) => p.sessionId !== undefined || (p.requestId !== undefined && p.requestId !== null), {
    message: 'an elicitation needs a scope: sessionId (optionally toolCallId) or requestId',
  })
  .refine((p) => p.mode !== 'form' || p.requestedSchema !== undefined, { message: 'a form elicitation needs requestedSchema' })
  .refine((p) => p.mode !== 'url' || (p.elicitationId !== undefined && p.url !== undefined), {
    message: 'a URL elicitation needs elicitationId and url',
  });
export type CreateElicitationParams = z.infer<typeof zCreateElicitationParams>;

/** A value the user gave: the `ElicitationContentValue` union (string, number, boolean, string list). */
const zElicitationValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ElicitationValue = z.infer<typeof zElicitationValue>;
export type ElicitationContent = Readonly<Record<string, ElicitationValue>>;

export const zCreateElicitationResult = z.discriminatedUnion('action', [
  z.looseObject({ action: z.literal('accept'), content: optional(z.record(z.string(), zElicitationValue).nullable()), _meta: optional(zMeta) }),
  z.looseObject({ action: z.literal('decline'), _meta: optional(zMeta) }),
  z.looseObject({ action: z.literal('cancel'), _meta: optional(zMeta) }),
]);
export type CreateElicitationResult = z.infer<typeof zCreateElicitationResult>;

export const zCompleteElicitationParams = z.looseObject({ elicitationId: z.string(), _meta: optional(zMeta.nullable()) });

/** What the client advertises: `{}` per supported mode (`elicitation: {}` alone means neither). */
export type ElicitationCapabilities = { form?: Record<string, unknown>; url?: Record<string, unknown> } & Record<string, unknown>;
