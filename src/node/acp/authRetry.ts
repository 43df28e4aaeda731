/**
 * Signing in when the agent asks for it: run a call; if the agent answers `auth_required` (-32000), let
 * `chooseMethod` pick one of the advertised methods (undefined gives up), sign in, and retry the call once.
 * An `agent` method signs in with `authenticate`; a `terminal` method is never sent to `authenticate` (the
 * schema forbids it): `runTerminal` runs it and says whether it succeeded (exit status 0). Apart from the
 * client because it is policy over its requests, not a request of its own.
 */
import type { AuthMethod } from '../../common/protocol/requests';
import { asTerminalAuthMethod, type TerminalAuthMethod } from '../../common/protocol/sessionOps';
import { isAuthRequired } from './errors';

export type ChooseAuthMethod = (methods: readonly AuthMethod[]) => Promise<string | undefined>;
export type RunTerminalAuth = (method: TerminalAuthMethod) => Promise<boolean>;

export interface Authenticating {
  readonly authMethods: readonly AuthMethod[];
  authenticate(methodId: string): Promise<object>;
}

export async function withAuthRetry<T>(client: Authenticating, call: () => Promise<T>, chooseMethod: ChooseAuthMethod, runTerminal?: RunTerminalAuth): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isAuthRequired(err)) throw err;
    const methodId = await chooseMethod(client.authMethods);
    const method = client.authMethods.find((m) => m.id === methodId);
    if (methodId === undefined) throw err;
    const terminal = method ? asTerminalAuthMethod(method) : undefined;
    if (terminal || method?.type === 'terminal') {
      if (!terminal || !runTerminal || !(await runTerminal(terminal))) throw err;
    } else {
      await client.authenticate(methodId);
    }
    return call();
  }
}
