/**
 * The side file older versions saved a chat's terminal views in (`<chat>.terminals.json`): read once when
 * such a chat is opened, into its store (src/node/persistence/chatRestore.ts), then deleted.
 * Reading is tolerant: a file saved before this existed, or an unreadable one, is "no terminals"; a bad
 * terminal is skipped and the rest kept. Never fatal: this is a view, the capture keeps every byte.
 */
import * as z from 'zod';
import { issueText } from './util/errors';
import type { TerminalView } from './webview/contract';

const TERMINALS_FORMAT = 'acp-chat/terminals';
const TERMINALS_FORMAT_VERSION = 1;

/** A terminal view and who runs the terminal: `client` (v1 `terminal/create`, ours) or `agent` (v2). */
export interface SavedTerminal extends TerminalView {
  readonly id: string;
  readonly owner: 'client' | 'agent';
}

const zSavedTerminal = z.object({
  id: z.string().min(1),
  output: z.string(),
  exited: z.boolean().catch(false),
  exitCode: z.number().int().nullable().catch(null),
  signal: z.string().nullable().catch(null),
  owner: z.enum(['client', 'agent']).catch('client'),
});

const zSavedTerminals = z.object({
  format: z.literal(TERMINALS_FORMAT),
  version: z.literal(TERMINALS_FORMAT_VERSION),
  terminals: z.array(z.unknown()),
});

/**
 * Reads a saved file's JSON (undefined: nothing saved). A terminal we ran (v1) that had not exited was
 * stopped with the window that ran it, so it comes back as ended (no code): never "Running…" forever.
 * An agent's terminal (v2) comes back as saved; the agent's resume snapshot corrects it.
 */
export function parseSavedTerminals(raw: unknown): { terminals: SavedTerminal[]; problems: string[] } {
  if (raw === undefined) return { terminals: [], problems: [] };
  const file = zSavedTerminals.safeParse(raw);
  if (!file.success) return { terminals: [], problems: [`the saved terminal views are unreadable (${issueText(file.error)}); started empty`] };
  const terminals: SavedTerminal[] = [];
  const problems: string[] = [];
  file.data.terminals.forEach((t, i) => {
    const r = zSavedTerminal.safeParse(t);
    if (!r.success) return void problems.push(`saved terminal view ${i} is unreadable (${issueText(r.error)}); skipped`);
    const v = r.data;
    terminals.push(v.owner === 'client' && !v.exited ? { ...v, exited: true, exitCode: null, signal: null } : v);
  });
  return { terminals, problems };
}
