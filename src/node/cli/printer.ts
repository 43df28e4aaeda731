/**
 * Plain-text transcript for `cli run`: agent text as it streams, `[thought]` blocks, one
 * `[tool] title (status)` line per tool-call status change, plans and permission decisions.
 * Reads only the few update fields it prints (tolerantly); the full model is the store's job.
 */
import * as z from 'zod';
import type { SessionNotification } from '../../common/protocol/requests';

const zChunk = z.looseObject({ content: z.looseObject({ type: z.string(), text: z.string().optional() }) });
const zTool = z.looseObject({ toolCallId: z.string(), title: z.string().nullish(), status: z.string().nullish() });
const zPlan = z.looseObject({ entries: z.array(z.looseObject({ content: z.string(), status: z.string() })) });
/** v2 draft whole-message upsert: printed when it carries content (a `_meta`-only patch prints nothing). */
const zUpsert = z.looseObject({ content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })) });
const zPlanUpdate = z.looseObject({ plan: z.looseObject({ type: z.literal('items'), entries: zPlan.shape.entries }) });

export class TranscriptPrinter {
  private block: 'text' | 'thought' | 'line' = 'line';
  private readonly tools = new Map<string, { title: string; status: string }>();

  constructor(private readonly write: (s: string) => void) {}

  update(n: SessionNotification): void {
    const u = n.update;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const c = zChunk.safeParse(u);
        if (!c.success) return;
        const kind = u.sessionUpdate === 'agent_message_chunk' ? 'text' : 'thought';
        const t = c.data.content.type === 'text' ? (c.data.content.text ?? '') : `[${c.data.content.type}]`;
        if (t === '') return;
        if (this.block !== kind) {
          this.endLine();
          if (kind === 'thought') this.write('[thought] ');
          this.block = kind;
        }
        this.write(t);
        return;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const t = zTool.safeParse(u);
        if (!t.success) return;
        const prev = this.tools.get(t.data.toolCallId);
        const title = t.data.title ?? prev?.title ?? t.data.toolCallId;
        const status = t.data.status ?? prev?.status ?? 'pending';
        this.tools.set(t.data.toolCallId, { title, status });
        if (prev && prev.status === status && u.sessionUpdate === 'tool_call_update') return;
        this.line(`[tool] ${title} (${status})`);
        return;
      }
      case 'agent_message': {
        const m = zUpsert.safeParse(u);
        if (!m.success) return;
        this.endLine();
        this.line(m.data.content.map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join(''));
        return;
      }
      case 'plan':
      case 'plan_update': {
        const p = zPlan.safeParse(u);
        const v2 = zPlanUpdate.safeParse(u);
        const entries = p.success ? p.data.entries : v2.success ? v2.data.plan.entries : undefined;
        if (entries) this.line(`[plan] ${entries.map((e) => `${e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '…' : '·'} ${e.content}`).join('; ')}`);
        return;
      }
      default:
        return;
    }
  }

  line(s: string): void {
    this.endLine();
    this.write(`${s}\n`);
  }

  private endLine(): void {
    if (this.block !== 'line') this.write('\n');
    this.block = 'line';
  }
}
