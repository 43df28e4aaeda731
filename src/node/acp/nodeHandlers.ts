/**
 * Plain-Node defaults for the client handlers (used by `cli run`): fs via node:fs, terminals via
 * NodeTerminalHost, permissions by a fixed policy. Options are chosen by `kind`, never by id —
 * every agent names its options differently.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes } from '../../common/protocol/methods';
import type { PermissionOption, ReadTextFileParams, RequestPermissionParams, RequestPermissionResult } from '../../common/protocol/requests';
import { rpcError } from '../transport/connection';

export type ApprovePolicy = 'all' | 'none';

/** Pick an option for the policy: all -> allow_once, else allow_always; none -> reject_once, else reject_always. */
export function chooseOption(options: readonly PermissionOption[], policy: ApprovePolicy): PermissionOption | undefined {
  const order = policy === 'all' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const o = options.find((x) => x.kind === kind);
    if (o) return o;
  }
  return undefined;
}

export function policyPermission(policy: ApprovePolicy, onDecision?: (p: RequestPermissionParams, chosen: PermissionOption | undefined) => void) {
  return async (p: RequestPermissionParams): Promise<RequestPermissionResult> => {
    const chosen = chooseOption(p.options, policy);
    onDecision?.(p, chosen);
    return chosen ? { outcome: { outcome: 'selected', optionId: chosen.optionId } } : { outcome: { outcome: 'cancelled' } };
  };
}

/** Apply ACP's 1-based `line` and `limit` to a text. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit === undefined || limit === null ? undefined : start + limit).join('\n');
}

export async function nodeReadTextFile(p: ReadTextFileParams): Promise<{ content: string }> {
  if (!path.isAbsolute(p.path)) throw rpcError(ErrorCodes.invalidParams, `path must be absolute: ${p.path}`);
  let text: string;
  try {
    text = await readFile(p.path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw rpcError(ErrorCodes.resourceNotFound, `file not found: ${p.path}`);
    throw err;
  }
  return { content: sliceLines(text, p.line, p.limit) };
}

export async function nodeWriteTextFile(p: { path: string; content: string }): Promise<void> {
  if (!path.isAbsolute(p.path)) throw rpcError(ErrorCodes.invalidParams, `path must be absolute: ${p.path}`);
  await mkdir(path.dirname(p.path), { recursive: true });
  await writeFile(p.path, p.content, 'utf8');
}
