/**
 * The request params and results the store reads, tolerant: only the fields it uses are checked, and
 * everything else passes (the transport checked the envelope; the conformance checker judges the rest).
 */
import * as z from 'zod';

export const zSessionIdParams = z.looseObject({ sessionId: z.string() });
export const zPromptParams = z.looseObject({ sessionId: z.string(), prompt: z.array(z.unknown()) });
export const zSetModeParams = z.looseObject({ sessionId: z.string(), modeId: z.string() });
export const zNewSessionResult = z.looseObject({ sessionId: z.string() });
export const zSetSessionTitleResult = z.looseObject({ title: z.string() });
export const zSessionResult = z.looseObject({ modes: z.unknown().optional(), configOptions: z.unknown().optional(), availableCommands: z.unknown().optional() });
export const zPromptResult = z.looseObject({ messageId: z.string().optional().catch(undefined) });
export const zInitializeResult = z.looseObject({ protocolVersion: z.number() });
export const zPermissionParams = z.looseObject({
  sessionId: z.string(),
  toolCall: z.unknown().optional(),
  subject: z.looseObject({ type: z.string(), toolCall: z.unknown().optional() }).optional().catch(undefined),
});
