/**
 * Content shapes shared by messages, prompts and tool calls (ACP v1 §10, MCP-compatible).
 *
 * Objects are loose: unknown extra properties are allowed by the schema and kept, so nothing an agent
 * sends is lost on the way to the debug views. Optional fields that are malformed fall back to
 * "absent" (`.catch(undefined)`), as the schema's `x-deserialize-default-on-error` marks say.
 */
import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const zMeta = z.record(z.string(), z.unknown());
export type Meta = z.infer<typeof zMeta>;

export const zAnnotations = z.looseObject({
  audience: optional(z.array(z.string())),
  lastModified: optional(z.string()),
  priority: optional(z.number()),
});

export const zTextContent = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
export const zImageContent = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  uri: optional(z.string().nullable()),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
export const zAudioContent = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
export const zResourceLink = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: optional(z.string().nullable()),
  description: optional(z.string().nullable()),
  mimeType: optional(z.string().nullable()),
  size: optional(z.number().nullable()),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
export const zTextResourceContents = z.looseObject({
  uri: z.string(),
  text: z.string(),
  mimeType: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
export const zBlobResourceContents = z.looseObject({
  uri: z.string(),
  blob: z.string(),
  mimeType: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
export const zEmbeddedResource = z.looseObject({
  type: z.literal('resource'),
  resource: z.union([zTextResourceContents, zBlobResourceContents]),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});

/** One content block. The union is closed in v1; callers decide whether an unknown `type` is an error. */
export const zContentBlock = z.discriminatedUnion('type', [
  zTextContent,
  zImageContent,
  zAudioContent,
  zResourceLink,
  zEmbeddedResource,
]);
export type ContentBlock = z.infer<typeof zContentBlock>;
export type TextContent = z.infer<typeof zTextContent>;

/** Tool-call content: note the double wrapping of plain content (`{type:"content", content:{...}}`). */
export const zToolCallContent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('content'), content: zContentBlock, _meta: optional(zMeta) }),
  z.looseObject({
    type: z.literal('diff'),
    path: z.string(),
    oldText: optional(z.string().nullable()),
    newText: z.string(),
    _meta: optional(zMeta),
  }),
  z.looseObject({ type: z.literal('terminal'), terminalId: z.string(), _meta: optional(zMeta) }),
]);
export type ToolCallContent = z.infer<typeof zToolCallContent>;

export const zToolCallLocation = z.looseObject({
  path: z.string(),
  line: optional(z.number().int().nonnegative().nullable()),
  _meta: optional(zMeta),
});
export type ToolCallLocation = z.infer<typeof zToolCallLocation>;

export const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];
/** v1 statuses plus v2's `paused` and `cancelled`; `cancelled` is also set locally when the user cancels a turn. */
export const TOOL_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'paused', 'cancelled'] as const;
export type ToolCallStatus = (typeof TOOL_STATUSES)[number];
