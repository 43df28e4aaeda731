/**
 * What the client opened a session with, as the store keeps it for the chat's details (the Message Tree's
 * Session state): the working folder, the additional directories, the system prompt's text and the MCP
 * servers' names. Read from our own session/new, load, resume or fork request and kept once the agent
 * accepted it; a later load or resume replaces it (the folders may have changed).
 */
import * as z from 'zod';

export const zSessionSetup = z.object({
  cwd: z.string(),
  additionalDirectories: z.array(z.string()).catch([]),
  systemPrompt: z.string().nullable().catch(null),
  mcpServers: z.array(z.string()).catch([]),
});
/** `systemPrompt`: the text sent (`append`), or null when none was. */
export type SessionSetup = z.infer<typeof zSessionSetup>;

const zOpenParams = z.looseObject({
  cwd: z.string(),
  additionalDirectories: z.array(z.string()).nullish().catch(null),
  systemPrompt: z
    .looseObject({ content: z.array(z.unknown()) })
    .nullish()
    .catch(null),
  mcpServers: z
    .array(z.looseObject({ name: z.string() }))
    .nullish()
    .catch(null),
});

/** The setup a session-opening request carries; undefined when its params have no `cwd`. */
export function setupOfRequest(params: unknown): SessionSetup | undefined {
  const p = zOpenParams.safeParse(params);
  if (!p.success) return undefined;
  const text = p.data.systemPrompt?.content.map((b) => (typeof b === 'object' && b !== null && 'text' in b && typeof b.text === 'string' ? b.text : '')).join('') ?? null;
  return { cwd: p.data.cwd, additionalDirectories: p.data.additionalDirectories ?? [], systemPrompt: text, mcpServers: (p.data.mcpServers ?? []).map((m) => m.name) };
}
