/**
 * What the rule modules share: the reducer step's dependencies (the store supplies it per ingested message)
 * and the session's bookkeeping that is not visible state but must survive save/restore.
 */
import type { ProtocolVersion } from '../protocol/methods';
import type { ChangeSink } from './entryTable';
import type { Diagnostic } from './model';
import type { Touch } from './stats';

/** Everything a reducer step needs from the store. */
export interface StepDeps extends ChangeSink {
  readonly line: number | undefined;
  readonly now: number;
  readonly version: ProtocolVersion;
  diagnostic(severity: Diagnostic['severity'], message: string): void;
}

// The bookkeeping's types are its saved form's (sessionSchema.ts).
export type { Bookkeeping, EchoState } from './sessionSchema';

export function touchOf(ctx: StepDeps, bytes: number, chunk: boolean): Touch {
  return { line: ctx.line, now: ctx.now, bytes, chunk };
}
