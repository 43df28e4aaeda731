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

/** The local prompt waiting for the agent's echo (v1 user chunks / v2 user_message) to merge into it. */
export interface EchoState {
  readonly key: string;
  readonly text: string;
  /** How much of `text` the echo has repeated so far. */
  matched: number;
}

/** Where the next update of the stream lands, as far as the message rules are concerned. */
export interface Bookkeeping {
  /** Index of the message anonymous chunks of its kind merge into, or -1. */
  open: number;
  echo: EchoState | null;
  /** Key of the agent message a tool call without `messageId` belongs to. */
  lastAgentKey: string | null;
}

export function touchOf(ctx: StepDeps, bytes: number, chunk: boolean): Touch {
  return { line: ctx.line, now: ctx.now, bytes, chunk };
}
