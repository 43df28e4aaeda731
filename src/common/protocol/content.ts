/**
 * Content shapes shared by messages, prompts and tool calls (ACP v1 §10, MCP-compatible).
 *
 * Objects are loose: unknown extra properties are allowed by the schema and kept, so nothing an agent
 * sends is lost on the way to the debug views. Optional fields that are malformed fall back to
 * "absent" (`.catch(undefined)`), as the schema's `x-deserialize-default-on-error` marks say.
 */
import * as z from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const zMeta = z.record(z.string(), z.unknown());
export type Meta = z.infer<typeof zMeta>;

const zAnnotations = z.looseObject({
  audience: optional(z.array(z.string())),
  lastModified: optional(z.string()),
  priority: optional(z.number()),
});

const zTextContent = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
const zImageContent = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  uri: optional(z.string().nullable()),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
const zAudioContent = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});
const zResourceLink = z.looseObject({
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
const zTextResourceContents = z.looseObject({
  uri: z.string(),
  text: z.string(),
  mimeType: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
const zBlobResourceContents = z.looseObject({
  uri: z.string(),
  blob: z.string(),
  mimeType: optional(z.string().nullable()),
  _meta: optional(zMeta),
});
const zEmbeddedResource = z.looseObject({
  type: z.literal('resource'),
  resource: z.union([zTextResourceContents, zBlobResourceContents]),
  annotations: optional(zAnnotations),
  _meta: optional(zMeta),
});

/**
 * A member of an open union (v2 `ContentBlock`, `ToolCallContent`, ...) whose `type` this client does
 * not know. The v2 draft says receivers must preserve it, so it is kept whole under `raw` and shown as
 * unsupported; v1's unions are closed, but an unknown block is kept the same way rather than failing.
 * The wrapper is idempotent: a saved `{type:"unsupported", raw}` parses back to itself.
 */
const zUnsupported = z.object({ type: z.literal('unsupported'), raw: z.record(z.string(), z.unknown()) });
export type Unsupported = z.infer<typeof zUnsupported>;

/** Known members by `type`, anything else with a string `type` as `Unsupported`. */
function openUnion<const K extends string, T extends z.ZodType>(known: readonly K[], union: T) {
  const zAny = z.looseObject({ type: z.string() });
  return z.union([union, zUnsupported, zAny.refine((o) => !(known as readonly string[]).includes(o.type)).transform((raw): Unsupported => ({ type: 'unsupported', raw }))]);
}

const knownBlock = z.discriminatedUnion('type', [zTextContent, zImageContent, zAudioContent, zResourceLink, zEmbeddedResource]);
/** One content block; unknown `type`s are kept as `Unsupported` (a known type with bad fields still fails). */
export const zContentBlock = openUnion(['text', 'image', 'audio', 'resource_link', 'resource'], knownBlock);
export type ContentBlock = z.infer<typeof zContentBlock>;

/** v1 diff: one file's whole old and new text. */
const zDiffV1 = z.looseObject({
  type: z.literal('diff'),
  path: z.string(),
  oldText: optional(z.string().nullable()),
  newText: z.string(),
  _meta: optional(zMeta),
});
/** v2 draft diff change: `operation` is open (add, delete, modify, move, copy, ...); `oldPath` for move/copy. */
const zDiffChange = z.looseObject({
  operation: z.string(),
  path: z.string(),
  oldPath: optional(z.string()),
  fileType: optional(z.string().nullable()),
  mimeType: optional(z.string().nullable()),
  _meta: optional(zMeta.nullable()),
});
/** v2 draft diff: a list of file changes plus an optional patch text (e.g. a unified diff). */
const zDiffV2 = z.looseObject({
  type: z.literal('diff'),
  changes: z.array(z.unknown()).transform((items) =>
    items.flatMap((i) => {
      const r = zDiffChange.safeParse(i);
      return r.success ? [r.data] : [];
    }),
  ),
  patch: optional(z.looseObject({ format: z.string(), text: z.string() }).nullable()),
  _meta: optional(zMeta.nullable()),
});
export type DiffV2 = z.infer<typeof zDiffV2>;

export type DiffV1 = z.infer<typeof zDiffV1>;
const knownToolContent = z.union([
  z.looseObject({ type: z.literal('content'), content: zContentBlock, _meta: optional(zMeta) }),
  zDiffV1,
  zDiffV2,
  z.looseObject({ type: z.literal('terminal'), terminalId: z.string(), _meta: optional(zMeta) }),
]);
/**
 * Tool-call content: note the double wrapping of plain content (`{type:"content", content:{...}}`).
 * `diff` has two shapes: v1 `{path, oldText, newText}` and the v2 draft's `{changes, patch}`
 * (`isDiffV2` tells them apart). Unknown types are kept as `Unsupported`.
 */
export const zToolCallContent = openUnion(['content', 'diff', 'terminal'], knownToolContent);
export type ToolCallContent = z.infer<typeof zToolCallContent>;

export const zToolCallLocation = z.looseObject({
  path: z.string(),
  line: optional(z.number().int().nonnegative().nullable()),
  _meta: optional(zMeta),
});
