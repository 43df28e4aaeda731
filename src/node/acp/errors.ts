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
    // The reason is often only in `data` ("Internal error" + { details: "Query closed before response
    // received" }), so it is part of the message every banner and log line shows.
    const detail = errorDataText(data);
    super(`${method} failed (${code}): ${message}${detail && !message.includes(detail) ? ` (${detail})` : ''}`);
    this.name = 'AcpRequestError';
  }
}

/** Longest `data` text put into an error message; the full value stays on the error and in the log. */
const MAX_DATA_CHARS = 500;

/**
 * A JSON-RPC error's `data` as one line of text: a string as it is, the usual `{ details }` / `{ message }`
 * / `{ error }` wrappers by their text, anything else as compact JSON; '' when there is nothing to say.
 */
export function errorDataText(data: unknown): string {
  let text = '';
  if (typeof data === 'string') text = data;
  else if (typeof data === 'object' && data !== null) {
    const r = data as Record<string, unknown>;
    const named = [r['details'], r['message'], r['error'], r['reason']].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (named !== undefined) text = named;
    else {
      try {
        text = JSON.stringify(data);
      } catch {
        text = '';
      }
      if (text === '{}' || text === '[]') text = '';
    }
  } else if (typeof data === 'number' || typeof data === 'boolean') text = String(data);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > MAX_DATA_CHARS ? `${text.slice(0, MAX_DATA_CHARS)}…` : text;
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
