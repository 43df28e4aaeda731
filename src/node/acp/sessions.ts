/**
 * Session operations built from the capability-gated ACP methods: reattaching a session after a restart
 * (resume keeps the client's transcript, load replays it), opening a saved session, and listing them all.
 * Only the client is needed, so the extension and the CLI share them.
 */
import type { AcpClient } from './client';
import type { McpServer, SessionInfo } from '../../common/protocol/requests';
import { errorText } from '../../common/util/errors';

/** A type literal (not an interface), so it is assignable to the loose request params types. */
export type SessionParams = { readonly cwd: string; readonly mcpServers: McpServer[]; readonly additionalDirectories?: string[] };

/** Wraps a session-creating call (signing in on auth_required, for example). */
export type CallWrapper = <T>(call: () => Promise<T>) => Promise<T>;

const direct: CallWrapper = (call) => call();

const message = (e: unknown) => errorText(e);

/**
 * Reattaches `sessionId`: resume when the agent supports it (no replay: the local transcript stays), else
 * load (the replay is merged by the store). Without a local transcript (`haveTranscript` false: a chat
 * opened on a session it has not shown yet) load comes first, so the history is replayed. Returns how it
 * reattached, or null when neither worked; every failure is reported to `log`.
 */
export async function reattachSession(
  client: AcpClient,
  sessionId: string,
  params: SessionParams,
  log: (message: string) => void,
  wrap: CallWrapper = direct,
  haveTranscript = true,
): Promise<'resumed' | 'loaded' | null> {
  const caps = client.agentCapabilities;
  const resume = async (): Promise<'resumed' | null> => {
    if (!caps?.sessionCapabilities?.resume) return null;
    try {
      await wrap(() => client.resumeSession({ sessionId, ...params }));
      return 'resumed';
    } catch (e) {
      log(`session/resume of ${sessionId} failed: ${message(e)}`);
      return null;
    }
  };
  const load = async (): Promise<'loaded' | null> => {
    if (!caps?.loadSession) return null;
    try {
      await wrap(() => client.loadSession({ sessionId, ...params }));
      return 'loaded';
    } catch (e) {
      log(`session/load of ${sessionId} failed: ${message(e)}`);
      return null;
    }
  };
  return haveTranscript ? ((await resume()) ?? (await load())) : ((await load()) ?? (await resume()));
}

/**
 * Opens another saved session: resumed when the client already has its transcript, else loaded (replayed),
 * else resumed anyway. Throws when the agent supports neither.
 */
export async function openSession(client: AcpClient, sessionId: string, params: SessionParams, haveTranscript: boolean, wrap: CallWrapper = direct): Promise<void> {
  const caps = client.agentCapabilities;
  const p = { sessionId, ...params };
  if (haveTranscript && caps?.sessionCapabilities?.resume) await wrap(() => client.resumeSession(p));
  else if (caps?.loadSession) await wrap(() => client.loadSession(p));
  else if (caps?.sessionCapabilities?.resume) await wrap(() => client.resumeSession(p));
  else throw new Error('the agent can neither load nor resume sessions');
}

/**
 * Every session `session/list` returns for `cwd` (following cursors, bounded); [] when the agent has no list.
 * `archived` (`include` / `only`) is sent only to agents that advertise archiving.
 */
export async function listAllSessions(client: AcpClient, cwd: string, maxPages = 20, archived?: 'include' | 'only'): Promise<SessionInfo[]> {
  if (!client.agentCapabilities?.sessionCapabilities?.list) return [];
  const out: SessionInfo[] = [];
  let cursor: string | undefined;
  // Cursors are opaque and must not be persisted: follow them now, bounded against a looping agent.
  for (let page = 0; page < maxPages; page++) {
    const filter = archived !== undefined && client.agentCapabilities?.sessionCapabilities?.archive ? { archived } : {};
    const r = await client.listSessions({ cwd, ...filter, ...(cursor !== undefined ? { cursor } : {}) });
    out.push(...r.sessions);
    cursor = r.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}
