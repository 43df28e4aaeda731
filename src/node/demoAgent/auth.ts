/**
 * The demo agent's sign-in, for testing a client's authentication paths without a real account.
 * Off unless a credential file is named (`ACP_DEMO_AUTH_FILE`): then sessions need that file to exist,
 * and requests that open one answer `auth_required` (-32000) until the user signs in by either method:
 * - `demo-login` (type `terminal`, offered only to clients that advertise `auth.terminal`): the client
 *   runs the demo agent's own command again with `--login` appended; that interactive sign-in (below)
 *   writes the file and exits 0;
 * - `demo-token` (type `agent`): `authenticate` writes the file.
 * `logout` deletes it.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ErrorCodes } from '../../common/protocol/methods';
import { rpcError } from '../transport/connection';

/** The argument that turns the demo agent into its interactive sign-in (the terminal auth method's `args`). */
export const LOGIN_ARG = '--login';
/** Env var the terminal method sets, so the sign-in knows it runs for a client (shown in its banner). */
const LOGIN_ENV = 'ACP_DEMO_LOGIN';
/** Env var that makes the interactive sign-in succeed without asking (for tests). */
export const LOGIN_AUTO_ENV = 'ACP_DEMO_LOGIN_AUTO';

export class DemoAuth {
  constructor(private readonly file: string | undefined) {}

  get enabled(): boolean {
    return this.file !== undefined;
  }

  /** The methods offered in initialize; terminal only when the client can run it (the schema's MUST). */
  methods(clientRunsTerminal: boolean, idField: 'id' | 'methodId' = 'id'): object[] {
    if (!this.enabled) return [];
    const token = { [idField]: 'demo-token', name: 'Demo token', description: 'Signs in at once (no terminal).' };
    const terminal = {
      type: 'terminal',
      [idField]: 'demo-login',
      name: 'Sign in to the demo agent',
      description: 'Runs the demo agent’s sign-in in a terminal.',
      args: [LOGIN_ARG],
      env: { [LOGIN_ENV]: '1' },
    };
    return clientRunsTerminal ? [terminal, token] : [token];
  }

  /** Throws `auth_required` when sign-in is on and the user has not signed in. */
  check(): void {
    if (this.file !== undefined && !existsSync(this.file)) throw rpcError(ErrorCodes.authRequired, 'Authentication required: sign in to the demo agent');
  }

  signIn(): void {
    if (this.file !== undefined) writeCredential(this.file);
  }

  signOut(): void {
    if (this.file !== undefined) rmSync(this.file, { force: true });
  }
}

function writeCredential(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `signed in ${new Date().toISOString()}\n`);
}

/**
 * `demo-agent.js --login`: the interactive sign-in a terminal auth method runs. Asks for "yes", writes
 * the credential file and exits 0; anything else (or no credential file configured) exits 1.
 */
export async function runLogin(file: string | undefined, auto: boolean, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<number> {
  output.write('ACP Chat demo agent: sign in\r\n');
  if (file === undefined) {
    output.write('ACP_DEMO_AUTH_FILE is not set: nothing to sign in to.\r\n');
    return 1;
  }
  let ok = auto;
  if (!auto) {
    const rl = createInterface({ input, output, terminal: false });
    output.write('Type "yes" to sign in: ');
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    rl.close();
    ok = /^\s*y(es)?\s*$/i.test(answer);
  }
  if (!ok) {
    output.write('Not signed in.\r\n');
    return 1;
  }
  writeCredential(file);
  output.write('Signed in.\r\n');
  return 0;
}
