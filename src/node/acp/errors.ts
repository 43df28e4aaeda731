/**
 * Errors the client raises. Callers branch on the class (or `code`), never on message text.
 */
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '../../common/protocol/methods';

/** The agent answered a request with a JSON-RPC error. */
export class AcpRequestError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method} failed (${code}): ${message}`);
    this.name = 'AcpRequestError';
  }
}

/** The agent answered, but not in a shape the protocol allows (e.g. a result missing a required field). */
export class AcpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AcpProtocolError';
  }
}

/** The connection closed (agent exited/crashed, or we disposed) while a request was pending. */
export class AcpClosedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AcpClosedError';
  }
}

export function isAuthRequired(err: unknown): err is AcpRequestError {
  return err instanceof AcpRequestError && err.code === ErrorCodes.authRequired;
}

/** Map whatever vscode-jsonrpc rejected with to one of our errors. */
export function toAcpError(method: string, err: unknown): Error {
  if (err instanceof ResponseError) return new AcpRequestError(method, err.code, err.message, err.data);
  if (err instanceof Error) return err;
  return new Error(String(err));
}
