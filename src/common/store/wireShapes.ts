/**
 * The request params and results the store reads, tolerant: only the fields it uses are checked, and
 * everything else passes (the transport checked the envelope; the conformance checker judges the rest).
 * Named `zStore…` so that none shares a name with the protocol schema of the same message (which checks the
 * whole shape, `src/common/protocol/`): an auto-import can no longer pick the wrong one.
 */
import * as z from 'zod';

export const zStoreSessionIdParams = z.looseObject({ sessionId: z.string() });
export const zStorePromptParams = z.looseObject({ sessionId: z.string(), prompt: z.array(z.unknown()) });
export const zStoreSetModeParams = z.looseObject({ sessionId: z.string(), modeId: z.string() });
export const zStoreNewSessionResult = z.looseObject({ sessionId: z.string() });
export const zStoreSetSessionTitleResult = z.looseObject({ title: z.string() });
export const zStoreSessionResult = z.looseObject({ modes: z.unknown().optional(), configOptions: z.unknown().optional(), availableCommands: z.unknown().optional() });
export const zStorePromptResult = z.looseObject({ messageId: z.string().optional().catch(undefined) });
export const zStoreInitializeResult = z.looseObject({ protocolVersion: z.number() });
export const zStorePermissionParams = z.looseObject({
  sessionId: z.string(),
  toolCall: z.unknown().optional(),
  subject: z.looseObject({ type: z.string(), toolCall: z.unknown().optional() }).optional().catch(undefined),
});
