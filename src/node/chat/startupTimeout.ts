/**
 * The startup timeout: an agent that never answers `initialize` or its session
 * request would leave the panel "starting" forever. Startup requests are bounded by
 * `acpChat.startupTimeoutSeconds`; prompts never are (a turn may run for hours).
 */
import type { AgentConfig } from '../../common/config/settings';

export class StartupTimeoutError extends Error {
  constructor(
    readonly step: string,
    readonly seconds: number,
  ) {
    super(`no answer to ${step} within ${seconds} s`);
    this.name = 'StartupTimeoutError';
  }
}

/** Rejects with StartupTimeoutError when `p` has not settled after `seconds` (0 or less: no bound). */
export function withStartupTimeout<T>(step: string, seconds: number, p: Promise<T>): Promise<T> {
  if (!(seconds > 0)) return p;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StartupTimeoutError(step, seconds)), seconds * 1000);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** What the user reads in the panel: what did not happen, what to check, how to go on. */
export function startupTimeoutText(agent: AgentConfig, e: StartupTimeoutError): string {
  const command = [agent.command, ...agent.args].join(' ');
  return (
    `${agent.name} did not answer ${e.step} within ${e.seconds} s. Check that the command (${command}) starts the agent in ACP mode, ` +
    `that you are signed in to it, and the network connection; the agent's log (ACP: Show Agent Log) has its output. ` +
    `Restart the agent to try again (acpChat.startupTimeoutSeconds sets the limit).`
  );
}
