/**
 * A real agent's own sessions imported the way the extension imports them, run by run-real-agents.mjs as the
 * second half of a recipe's client (after `cli.js run` made a session in the agent's own store, so that
 * session was started by another client): the agent is started for a listing alone
 * (agentSessionLister.ts: initialize, session/list for the workspace), the sessions no chat shows are
 * picked (agentSessions.ts), one is loaded into a message store as a chat's would be (session/load,
 * else resume), and then: its prompt and the agent's answer are in the store once, a second load does not
 * show them twice, and a listing taken after the import no longer offers it.
 *   node --import tsx test/agents/sessionImport.ts --cwd DIR --prompt TEXT --answer TEXT -- AGENT ARGS...
 * Prints one `ok …` / `FAIL …` line per check and exits 1 on a failure.
 */
import { parseArgs } from 'node:util';
import { spawnAgent, type AgentLink } from '../../src/node/acp/agentLink';
import { listWithOwnLink } from '../../src/node/history/agentSessionLister';
import { agentSessionsRow, unknownSessions } from '../../src/common/history/agentSessions';
import { openSession } from '../../src/node/acp/sessions';
import { MessageStore } from '../../src/common/store';
import type { AgentConfig } from '../../src/common/config/settings';
import type { ChatRecord } from '../../src/common/chats/chatIndex';

const dd = process.argv.indexOf('--');
const { values } = parseArgs({
  args: process.argv.slice(2, dd),
  options: { cwd: { type: 'string' }, prompt: { type: 'string' }, answer: { type: 'string' } },
});
const [command, ...args] = process.argv.slice(dd + 1);
const cwd = values.cwd ?? process.cwd();
if (!command || dd < 0) throw new Error('usage: sessionImport.ts --cwd DIR --prompt TEXT --answer TEXT -- AGENT ARGS...');
const agent: AgentConfig = { id: 'real', name: 'real agent', command, args, env: {} };
const deps = { connect: spawnAgent, cwd, protocolVersion: 1 as const, log: (m: string) => console.error(m) };
let failed = 0;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} sessions: ${what}`);
  if (!ok) failed++;
};
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

async function list() {
  const ac = new AbortController();
  const out = await listWithOwnLink(agent, deps, ac.signal);
  if (out === 'unsupported') throw new Error('the agent did not advertise session/list');
  return out;
}

async function main(): Promise<number> {
  const listed = await list();
  const offered = agentSessionsRow(agent, { state: 'listed', sessions: listed }, [], []);
  check(offered.state === 'listed' && offered.sessions.length >= 1, `the agent lists ${listed.length} session(s) for the workspace, ${offered.sessions.length} new to the client`);
  const target = offered.sessions[0];
  if (!target) return 1;

  // Loaded as a chat's store would get it: the tap feeds the store every message both ways.
  const store = new MessageStore();
  let link: AgentLink | undefined;
  try {
    link = await spawnAgent({
      agent,
      cwd,
      protocolVersion: 1,
      handlers: { requestPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }) },
      tap: (dir, msg) => void (dir === 'client->agent' || dir === 'agent->client' ? store.ingest(dir, msg) : undefined),
      log: () => undefined,
      onInvalidLine: () => undefined,
      onStderr: () => undefined,
    });
    await link.client.initialize();
    const params = { cwd, mcpServers: [] };
    await openSession(link.client, target.sessionId, params, false);
    store.attach(target.sessionId);
    const text = (kind: string) =>
      (store.session(target.sessionId)?.entries ?? [])
        .filter((e) => e.kind === kind)
        .map((e) => norm(('content' in e ? e.content : []).map((c) => ('text' in c ? c.text : '')).join('')));
    // A replay may arrive after the response (as live updates do): wait for the answer a little.
    for (let i = 0; i < 50 && !text('agent_message').some((t) => t.includes(norm(values.answer ?? ''))); i++) await new Promise((r) => setTimeout(r, 100));
    const prompts = text('user_message').filter((t) => t.includes(norm(values.prompt ?? '')));
    check(prompts.length === 1, `its history replayed: the prompt once (${prompts.length})`);
    check(
      text('agent_message').some((t) => t.includes(norm(values.answer ?? ''))),
      'its history replayed: the agent’s final answer',
    );
    const before = (store.session(target.sessionId)?.entries ?? []).length;
    if (link.client.agentCapabilities?.loadSession) {
      // The agent replays before it answers the load, so the replay is in the store when the call returns.
      await openSession(link.client, target.sessionId, params, false);
      const again = text('user_message').filter((t) => t.includes(norm(values.prompt ?? '')));
      check(again.length === 1, `loaded again, still shown once (${again.length} prompt(s), ${before} → ${(store.session(target.sessionId)?.entries ?? []).length} entries)`);
    }
  } finally {
    link?.dispose();
  }

  // Imported: the chat that shows it now knows its session, so a new listing does not offer it again.
  const record: ChatRecord = { id: 'chat-imported', agentId: agent.id, title: null, sessionId: target.sessionId, createdAt: 0, updatedAt: 0 };
  const after = await list();
  check(
    after.some((s) => s.sessionId === target.sessionId),
    'the agent still lists it',
  );
  check(!unknownSessions(after, [record], []).some((s) => s.sessionId === target.sessionId), 'a listing after the import does not offer it again');
  console.log(`${failed === 0 ? 'sessions: all ok' : `sessions: ${failed} failed`}`);
  return failed ? 1 : 0;
}

void main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.log(`FAIL sessions: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
