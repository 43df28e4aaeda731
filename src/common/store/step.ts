/**
 * One reduction step: what every rule gets while the store applies one message or client event
 * (its capture line, clock, wire version, the session it touched) and the changes it collects. Its own file
 * so the rules outside the store class (agentCalls.ts) can take it without importing the store.
 */
import type { ProtocolVersion } from '../protocol/methods';
import type { StoreDelta } from './deltas';
import type { StepDeps } from './stepDeps';
import type { Diagnostic } from './model';

export class Step implements StepDeps {
  readonly changes: StoreDelta[] = [];
  sessionId: string | undefined;
  constructor(
    private readonly report: (step: Step, severity: Diagnostic['severity'], message: string) => void,
    readonly line: number | undefined,
    readonly now: number,
    readonly version: ProtocolVersion,
    private readonly keys: () => string,
  ) {}
  diagnostic(severity: Diagnostic['severity'], message: string): void {
    this.report(this, severity, message);
  }
  newKey(): string {
    return this.keys();
  }
}
