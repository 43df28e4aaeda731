/**
 * The sessions `cli run` prints: the run's own session and the subagents announced under it (any depth),
 * derived from the `subagent_update`s the printer sees (the store is not run here). Only a session in this
 * tree has its updates printed, so an agent cannot pass text off as the session's by naming another id.
 */
import { zSubagentUpdate } from '../../common/protocol/updates';

interface Node {
  /** The session that announced it (null: the run's own session). Never changes once set. */
  readonly parent: string | null;
  readonly depth: number;
  title: string | null;
  description: string | null;
  state: string | null;
  stopReason: string | null;
}

export class SessionTree {
  private readonly nodes = new Map<string, Node>();

  /** The run's own session: depth 0. */
  attach(sessionId: string): void {
    if (!this.nodes.has(sessionId)) this.nodes.set(sessionId, { parent: null, depth: 0, title: null, description: null, state: null, stopReason: null });
  }

  get attached(): boolean {
    return this.nodes.size > 0;
  }

  /** How deep `sessionId` is printed, or undefined when it is not the run's session nor announced under it. */
  depth(sessionId: string): number | undefined {
    return this.nodes.get(sessionId)?.depth;
  }

  parentOf(sessionId: string): string | null | undefined {
    return this.nodes.get(sessionId)?.parent;
  }

  /** How a line names a session: a subagent's title, else its id. */
  label(sessionId: string): string {
    return this.nodes.get(sessionId)?.title ?? sessionId;
  }

  /**
   * A `subagent_update` on `on` (a session of the tree): the header lines it makes, printed at `on`'s depth.
   * A new id announces a child of `on`; an id already in the tree is never moved (no adoption, no cycles),
   * and only its own parent may change what is said about it.
   */
  subagent(on: string, update: unknown): string[] {
    const at = this.nodes.get(on);
    const p = zSubagentUpdate.safeParse(update);
    if (!at || !p.success) return [];
    const u = p.data;
    const lines: string[] = [];
    let node = this.nodes.get(u.sessionId);
    if (!node) {
      node = { parent: on, depth: at.depth + 1, title: u.title ?? null, description: u.description ?? null, state: null, stopReason: null };
      this.nodes.set(u.sessionId, node);
      lines.push(`[subagent] ${this.label(u.sessionId)}${node.description ? ` (${node.description})` : ''} started`);
    } else if (node.parent !== on) {
      return [];
    } else {
      if (u.title !== undefined) node.title = u.title;
      if (u.description !== undefined) node.description = u.description;
    }
    // A cleared state (null) says nothing new about the work: no line.
    if (u.state) {
      const state = u.state.state;
      const stopReason = u.state.stopReason ?? null;
      const changed = state !== node.state || stopReason !== node.stopReason;
      const first = node.state === null;
      node.state = state;
      node.stopReason = stopReason;
      if (changed && !(first && state === 'running')) lines.push(`[subagent] ${this.label(u.sessionId)}: ${stateText(state, stopReason)}`);
    }
    return lines;
  }
}

function stateText(state: string, stopReason: string | null): string {
  switch (state) {
    case 'running':
      return 'running';
    case 'idle':
      return stopReason === null || stopReason === 'end_turn' ? 'done' : `stopped (${stopReason})`;
    case 'requires_action':
      return 'needs you';
    case 'unknown':
      return 'state unknown';
    default:
      return state;
  }
}
