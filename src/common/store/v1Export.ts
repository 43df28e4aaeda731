/**
 * v1 export: writes a v2 update sequence as v1 updates (one chunk per content block). A stateful
 * adapter, as the v2 message-updates RFD describes: a content-bearing whole-message update becomes
 * chunks only while v1 has seen no content for that id. What v1 cannot express (patch-only updates,
 * `content: null` / `[]`, `_meta: null`, replacing content already sent, nulls that clear tool-call
 * scalars, v2-only kinds) is reported as an error with its index — never silently dropped.
 */
import type { ContentBlock, ToolCallContent } from '../protocol/content';
import { isDiffV2 } from '../protocol/contentHelpers';
import { PROTOCOL_V2 } from '../protocol/methods';
import { parseSessionUpdate } from '../protocol/updates';
import { isRecord } from '../util/guards';

/** A v1 `session/update` `update` object (plain JSON). */
type V1Update = Readonly<Record<string, unknown>> & { readonly sessionUpdate: string };
interface V1ExportError {
  /** Index of the v2 update that cannot be expressed. */
  readonly index: number;
  readonly message: string;
}
export type V1ExportResult = { readonly ok: true; readonly updates: readonly V1Update[] } | { readonly ok: false; readonly errors: readonly V1ExportError[] };

/** Kinds whose v1 shape is the same as their v2 shape. */
const PASS_THROUGH = new Set([
  'available_commands_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
]);

/** Why a content block or tool-call content item has no v1 form, or undefined when it has one. */
function notV1Block(b: ContentBlock): string | undefined {
  return b.type === 'unsupported' ? `content of type '${String(b.raw.type)}'` : undefined;
}
function notV1Content(items: readonly ToolCallContent[] | null | undefined): string | undefined {
  for (const c of items ?? []) {
    if (c.type === 'unsupported') return `tool call content of type '${String(c.raw.type)}'`;
    if (isDiffV2(c)) return 'a v2 diff (changes without whole old/new text)';
    if (c.type === 'content') {
      const why = notV1Block(c.content);
      if (why) return why;
    }
  }
  return undefined;
}

export function exportV1(updates: readonly unknown[]): V1ExportResult {
  const out: V1Update[] = [];
  const errors: V1ExportError[] = [];
  /** Message ids v1 has seen content for. */
  /** `kind:messageId` of the messages sent so far (ids are scoped by kind). */
  const sent = new Set<string>();
  /** Tool calls v1 knows, with the content array it last saw (v1 can only replace whole arrays). */
  const tools = new Map<string, readonly ToolCallContent[]>();

  updates.forEach((raw, index) => {
    const fail = (message: string) => errors.push({ index, message: `update ${index}: ${message}` });
    const parsed = parseSessionUpdate({ sessionId: '-', update: raw }, PROTOCOL_V2);
    if (!parsed.ok) return fail(parsed.message);
    const u = parsed.update;
    const unexpressible =
      u.kind === 'chunk'
        ? notV1Block(u.chunk.content)
        : u.kind === 'message'
          ? (u.upsert.content ?? []).map(notV1Block).find((w) => w !== undefined)
          : u.kind === 'tool_call'
            ? notV1Content(u.toolCall.content)
            : u.kind === 'tool_call_update'
              ? notV1Content(u.patch.content)
              : u.kind === 'tool_call_content_chunk'
                ? notV1Content([u.chunk.content])
                : undefined;
    if (unexpressible !== undefined) return fail(`${unexpressible} cannot be expressed in v1`);
    switch (u.kind) {
      case 'chunk':
        if (u.chunk.messageId !== null) sent.add(`${u.chunkKind.slice(0, -'_chunk'.length)}:${u.chunk.messageId}`);
        out.push({ sessionUpdate: u.chunkKind, content: u.chunk.content, messageId: u.chunk.messageId });
        return;
      case 'message': {
        const { messageId, content, _meta } = u.upsert;
        if (content === undefined) return fail(`${u.upsertKind} '${messageId}' without content is a patch v1 cannot express`);
        if (content === null || content.length === 0) return fail(`${u.upsertKind} '${messageId}' clears content, which v1 cannot express`);
        if (_meta === null) return fail(`${u.upsertKind} '${messageId}' clears _meta, which v1 cannot express`);
        if (sent.has(`${u.upsertKind}:${messageId}`)) return fail(`${u.upsertKind} '${messageId}' replaces content already sent, which v1 cannot express`);
        sent.add(`${u.upsertKind}:${messageId}`);
        content.forEach((block, i) => {
          // v1 has no message-level _meta: it travels on the message's first chunk.
          out.push({ sessionUpdate: `${u.upsertKind}_chunk`, content: block, messageId, ...(i === 0 && _meta ? { _meta } : {}) });
        });
        return;
      }
      case 'tool_call':
        tools.set(u.toolCall.toolCallId, u.toolCall.content ?? []);
        out.push({ ...u.toolCall, sessionUpdate: 'tool_call' });
        return;
      case 'tool_call_update': {
        const p = u.patch;
        const cleared = (['title', 'name', 'kind', 'status', 'rawInput', 'rawOutput', '_meta'] as const).filter((f) => p[f] === null);
        if (cleared.length > 0) return fail(`tool_call_update '${p.toolCallId}' clears ${cleared.join(', ')}, which v1 cannot express`);
        const fields: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(p)) if (v !== undefined && k !== 'messageId') fields[k] = v;
        // null clears a collection in v2; [] says the same in v1.
        if (p.content === null) fields.content = [];
        if (p.locations === null) fields.locations = [];
        const known = tools.has(p.toolCallId);
        if (p.content !== undefined) tools.set(p.toolCallId, p.content ?? []);
        else if (!known) tools.set(p.toolCallId, []);
        if (!known) {
          out.push({ ...fields, sessionUpdate: 'tool_call', toolCallId: p.toolCallId, title: p.title ?? p.name ?? '' });
          return;
        }
        out.push({ ...fields, sessionUpdate: 'tool_call_update' });
        return;
      }
      case 'tool_call_content_chunk': {
        // v1 cannot append: resend the whole array, as a v1 agent streaming output would.
        const content = [...(tools.get(u.chunk.toolCallId) ?? []), u.chunk.content];
        const known = tools.has(u.chunk.toolCallId);
        tools.set(u.chunk.toolCallId, content);
        out.push(
          known
            ? { sessionUpdate: 'tool_call_update', toolCallId: u.chunk.toolCallId, content }
            : { sessionUpdate: 'tool_call', toolCallId: u.chunk.toolCallId, title: '', content },
        );
        return;
      }
      case 'plan':
        out.push({ sessionUpdate: 'plan', entries: u.entries });
        return;
      case 'plan_update':
        // An item plan is v1's plan; Markdown and file plans have only the unstable v1 form.
        out.push(u.plan.type === 'items' ? { sessionUpdate: 'plan', entries: u.plan.entries } : { sessionUpdate: 'plan_update', plan: u.plan });
        return;
      case 'plan_removed':
        out.push({ sessionUpdate: 'plan_removed', planId: u.planId });
        return;
      case 'current_mode':
        out.push({ sessionUpdate: 'current_mode_update', currentModeId: u.currentModeId });
        return;
      case 'config_options':
        // v2 names the option id `configId`; the parsed options carry v1's `id` as well.
        out.push({ sessionUpdate: 'config_option_update', configOptions: u.configOptions });
        return;
      case 'available_commands':
      case 'session_info':
      case 'usage':
      case 'ignored': {
        const kind = isRecord(raw) && typeof raw.sessionUpdate === 'string' ? raw.sessionUpdate : '?';
        if (PASS_THROUGH.has(kind) && isRecord(raw)) out.push({ ...raw, sessionUpdate: kind });
        else fail(`'${kind}' has no v1 equivalent`);
        return;
      }
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, updates: out };
}
