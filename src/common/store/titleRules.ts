/**
 * The title a session shows. The user's (Rename Chat) wins over the agent's until they clear it: an agent
 * that forgot it (a restart) and names the session again must not overwrite it. Titles are one line
 * everywhere (tab, header, tree, export heading): an agent's title may hold line breaks and controls.
 */
import { plainLine } from '../untrusted';

export function shownTitle(user: string | null, agent: string | null): string | null {
  const line = plainLine(user ?? agent ?? '').trim();
  return line === '' ? null : line;
}
