/** Slash-command completion for the prompt box: pure, so its matching is unit-tested. */
import type { AvailableCommand } from '../src/common/store/model';

/** The command word being typed (`/he` -> `he`), or null when the prompt is not a bare leading command. */
export function slashQuery(value: string, caret: number): string | null {
  const m = /^\/(\S*)$/.exec(value.slice(0, caret));
  if (!m || value.slice(caret).trim() !== '') return null;
  return m[1]!;
}

/** Prefix matches first, then substring matches, each in the agent's order. */
export function matchCommands(commands: readonly AvailableCommand[], query: string): AvailableCommand[] {
  const q = query.toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner];
}

export function completeCommand(command: AvailableCommand): string {
  return `/${command.name} `;
}
