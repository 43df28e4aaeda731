/** `zHistoryToHost`: what the history webview may say, checked at the host (historyContract.ts has the types). */
import * as z from 'zod';
import { CHAT_STATES, DATE_RANGES } from './historyFilter';
import type { HistoryToHost } from './historyContract';

const zId = z.string().min(1).max(200);
const zFilter = z.object({
  agent: z.string().max(500).optional(),
  folder: z.string().max(4000).optional(),
  date: z.enum(DATE_RANGES).optional(),
  state: z.enum(CHAT_STATES).optional(),
  unreadOnly: z.boolean().optional(),
});

export const zHistoryToHost: z.ZodType<HistoryToHost> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('query'), seq: z.number().int(), text: z.string().max(1000), filter: zFilter }),
  z.object({ type: z.literal('open'), chatId: zId, key: z.string().min(1).max(200).optional() }),
  z.object({ type: z.literal('bulk'), action: z.enum(['archive', 'unarchive', 'delete', 'export', 'markRead']), chatIds: z.array(zId).max(100_000), all: z.boolean() }),
  z.object({ type: z.literal('more'), seq: z.number().int(), shown: z.number().int().nonnegative() }),
  z.object({ type: z.literal('listAgentSessions') }),
  z.object({ type: z.literal('openAgentSession'), agentId: z.string().min(1).max(500), sessionId: z.string().min(1).max(1000) }),
]) as z.ZodType<HistoryToHost>;
