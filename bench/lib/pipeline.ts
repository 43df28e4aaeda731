// What the chat panel's host side runs for one chat, driven by a flood agent (bench/fixtures/
// floodAgent.mjs) as a real child process: AcpClient (transport) -> tap -> MessageStore.ingest ->
// the shipped panel feed (PanelSource -> PanelFeed, a frame every 16 ms) -> JSON.stringify of each post.
// Shared by bench/endToEnd.bench.ts and bench/multiChat.bench.ts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { AcpClient } from '../../src/node/acp/client';
import { MessageStore } from '../../src/common/store';
import { PanelFeed, PanelSource } from '../../src/common/webview/panelFeed';

export const FLOOD_AGENT = path.join(__dirname, '../fixtures/floodAgent.mjs');
export const floodEnv = (n: number): NodeJS.ProcessEnv => ({ ...process.env, FLOOD_CHUNKS: String(n) });

export interface PipelineRun {
  /** Wall ms from spawning the agent to the prompt's answer. */
  ms: number;
  /** Bytes of the posts the panel would send. */
  posted: number;
  /** The chat's store and session, kept alive for the caller to measure. */
  store: MessageStore;
  sessionId: string;
}

/** A started flood agent: the byte streams the client reads and writes, and how to stop it. */
export interface FloodLink {
  readonly input: Readable;
  readonly output: Writable;
  stop(): void;
}

/** The flood agent as a child process over stdio (the default link). */
function stdioFlood(chunks: number): FloodLink {
  const child = spawn(process.execPath, [FLOOD_AGENT], { env: floodEnv(chunks), stdio: ['pipe', 'pipe', 'inherit'] });
  return { input: child.stdout, output: child.stdin, stop: () => child.kill() };
}

/**
 * One chat: starts the flood agent for `chunks` chunks (`link`: over stdio unless told), drains one
 * prompt's answer, stops the agent.
 */
export async function runPipeline(chunks: number, link: (chunks: number) => FloodLink | Promise<FloodLink> = stdioFlood): Promise<PipelineRun> {
  const t = performance.now();
  const agent = await link(chunks);
  const store = new MessageStore();
  let sessionId: string | null = null;
  let posted = 0;
  const source = new PanelSource();
  const feed = new PanelFeed(
    (m) => (posted += JSON.stringify(m).length),
    () => performance.now(),
  );
  source.onDidChange((c) => feed.changed(c));
  const frame = setInterval(() => feed.frame(), 16);
  const client = new AcpClient({
    input: agent.input,
    output: agent.output,
    // The flood agent asks nothing; a request would be a bench bug, answered as dismissed.
    handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    clientInfo: { name: 'bench', version: '0' },
    tap: (dir, msg, _raw, checked) => {
      const changes = checked ? store.ingestChecked(dir, checked) : store.ingest(dir, msg);
      source.storeChanged(changes, sessionId, () => (sessionId ? store.session(sessionId) : undefined));
    },
  });
  try {
    await client.initialize();
    sessionId = (await client.newSession({ cwd: '/', mcpServers: [] })).sessionId;
    await client.prompt(sessionId, [{ type: 'text', text: 'go' }]);
  } finally {
    clearInterval(frame);
    client.dispose();
    agent.stop();
  }
  feed.flush();
  return { ms: performance.now() - t, posted, store, sessionId };
}
