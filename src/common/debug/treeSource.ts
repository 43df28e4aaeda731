/**
 * What the "ACP Messages" tree shows. Implemented by the chat controller (live) and by opened captures;
 * the VS Code tree (src/vscode/debug/messageTree.ts) consumes it. Kept here, below both, so controller code
 * never imports the VS Code layer for a type.
 */
import type { BranchOrigin } from './treeModel';
import type { Diagnostic, SessionState } from '../store/model';
import type { CaptureRecord } from './protocolLog';
import type { Finding } from '../conformance';
import type { Event } from '../util/lifecycle';

export interface TreeSource {
  readonly label: string;
  sessions(): readonly SessionState[];
  diagnostics(sessionId: string): readonly Diagnostic[];
  readonly onDidChangeTree: Event<void>;
  /** The recorded messages with these seqs (an entry's `stats.lines`), for "Show Protocol Messages". */
  protocolRecords(seqs: ReadonlySet<number>): readonly CaptureRecord[];
  /** Conformance findings about this session (and the connection), by capture line; absent: not checked. */
  findings?(sessionId: string): readonly Finding[];
  /** Where the chat was branched from (provenance `forked`); shown under its first session. */
  origin?(): BranchOrigin | null;
}
