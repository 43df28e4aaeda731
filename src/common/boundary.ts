/**
 * The workspace boundary: what an agent may touch outside the workspace folders (the extension) or
 * `--cwd` (the CLI). Paths are compared only after the caller resolved `..` and symlinks to real paths
 * (`src/node/realPath.ts`); this module only decides.
 */
import { isInside, type PathStyle } from './pathBoundary';

/** `fs/read_text_file`, `fs/write_text_file`, and `terminal/create`'s working directory. */
export type Access = 'read' | 'write' | 'terminal';

/**
 * `acpChat.outsideWorkspace`: `ask` (default) asks before any of them outside the workspace; `allowRead`
 * reads anywhere but asks for the rest; `allow` never asks; `deny` refuses without asking.
 */
export type OutsideWorkspacePolicy = 'ask' | 'allowRead' | 'allow' | 'deny';
export const OUTSIDE_WORKSPACE_POLICIES = ['ask', 'allowRead', 'allow', 'deny'] as const satisfies readonly OutsideWorkspacePolicy[];

export type Decision = 'allow' | 'ask' | 'deny';

/** What to do with an access to a real path inside (or not) one of the real workspace roots. */
export function decide(policy: OutsideWorkspacePolicy, access: Access, inside: boolean): Decision {
  if (inside || policy === 'allow') return 'allow';
  if (policy === 'deny') return 'deny';
  if (policy === 'allowRead' && access === 'read') return 'allow';
  return 'ask';
}

/**
 * A write inside the workspace to a file that configures VS Code, git or this extension: asked about
 * whatever the policy (`allow` is about going outside, and must not silently also let an agent widen its
 * own permissions or plant a git hook), and refused without asking under `deny`.
 */
export function decideConfigWrite(policy: OutsideWorkspacePolicy): Decision {
  return policy === 'deny' ? 'deny' : 'ask';
}

/** Human words for a consent prompt. */
export function describeAccess(access: Access): string {
  return access === 'read' ? 'read a file' : access === 'write' ? 'write a file' : 'run a command';
}

/**
 * "Allow for This Session" answers: per ACP session, per kind of access, for one folder and what is
 * under it. Writing somewhere implies reading there; a terminal grant covers only terminals.
 * "Deny for This Session" refuses that kind of access outside the workspace for the rest of the session,
 * so an agent cannot bury the user under dialogs.
 */
export class SessionGrants {
  private readonly grants = new Map<string, { access: Access; folder: string }[]>();
  private readonly denied = new Set<string>();

  constructor(private readonly style: PathStyle) {}

  deny(sessionId: string, access: Access): void {
    this.denied.add(`${access} ${sessionId}`);
  }

  denies(sessionId: string, access: Access): boolean {
    return this.denied.has(`${access} ${sessionId}`);
  }

  grant(sessionId: string, access: Access, folder: string): void {
    const list = this.grants.get(sessionId) ?? [];
    list.push({ access, folder });
    this.grants.set(sessionId, list);
  }

  allows(sessionId: string, access: Access, real: string): boolean {
    return (this.grants.get(sessionId) ?? []).some((g) => (g.access === access || (access === 'read' && g.access === 'write')) && isInside(g.folder, real, this.style));
  }
}
