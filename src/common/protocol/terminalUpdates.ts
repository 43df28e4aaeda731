/**
 * ACP v2 agent-owned display terminals: `terminal_update` (an upsert whose `output` is a base64
 * replacement snapshot and whose `exitStatus` marks the exit) and `terminal_output_chunk` (base64 bytes
 * appended). This turns them into the same "append / replace / exit" events the panel's terminal view
 * already streams for v1 terminals the client runs itself.
 *
 * Bytes are decoded with one streaming UTF-8 decoder per terminal, so a character split across two
 * chunks is not turned into two replacement characters. Pure TS: `atob` and `TextDecoder` exist in Node
 * and in browsers.
 */
import * as z from 'zod';

const zTerminalUpdate = z.looseObject({
  sessionUpdate: z.literal('terminal_update'),
  terminalId: z.string(),
  // Tolerant: a malformed optional field is treated as omitted (the schema's default-on-error).
  output: z.looseObject({ data: z.string() }).nullable().optional().catch(undefined),
  exitStatus: z
    .looseObject({ exitCode: z.number().int().nullable().optional().catch(null), signal: z.string().nullable().optional().catch(null) })
    .nullable()
    .optional()
    .catch(undefined),
});
const zTerminalOutputChunk = z.looseObject({ sessionUpdate: z.literal('terminal_output_chunk'), terminalId: z.string(), data: z.string() });
const zParams = z.looseObject({ sessionId: z.string(), update: z.union([zTerminalUpdate, zTerminalOutputChunk]) });

/** What a terminal update means for the view: text to append (or, with `replace`, the whole output) and an exit. */
export interface TerminalEvent {
  readonly sessionId: string;
  readonly terminalId: string;
  readonly text: string;
  /** The text replaces the output so far (a `terminal_update` snapshot, or `output: null` clearing it). */
  readonly replace: boolean;
  readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
}

function decodeBase64(data: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Decodes v2 terminal updates of one connection into terminal events; keeps per-terminal decoder state. */
export class TerminalUpdateDecoder {
  private readonly decoders = new Map<string, InstanceType<typeof TextDecoder>>();

  /**
   * `session/update` params → a terminal event, or null when they are not a terminal update (or one
   * with nothing to show). Undecodable base64 yields a marker text rather than silently nothing.
   */
  decode(params: unknown): TerminalEvent | null {
    const p = zParams.safeParse(params);
    if (!p.success) return null;
    const { sessionId, update: u } = p.data;
    const key = `${sessionId}\u0000${u.terminalId}`;
    const text = (data: string, fresh: boolean): string => {
      const bytes = decodeBase64(data);
      if (!bytes) return '[undecodable terminal output]\n';
      let d = this.decoders.get(key);
      if (!d || fresh) this.decoders.set(key, (d = new TextDecoder('utf-8')));
      return d.decode(bytes, { stream: true });
    };
    if (u.sessionUpdate === 'terminal_output_chunk') return { sessionId, terminalId: u.terminalId, text: text(u.data, false), replace: false };
    const exit = u.exitStatus ? { exit: { exitCode: u.exitStatus.exitCode ?? null, signal: u.exitStatus.signal ?? null } } : {};
    if (u.output === null) {
      this.decoders.delete(key);
      return { sessionId, terminalId: u.terminalId, text: '', replace: true, ...exit };
    }
    if (u.output !== undefined) return { sessionId, terminalId: u.terminalId, text: text(u.output.data, true), replace: true, ...exit };
    // A first sighting (command/cwd only) still creates the terminal, so the card says "running", not "(no output)".
    return { sessionId, terminalId: u.terminalId, text: '', replace: false, ...exit };
  }
}
