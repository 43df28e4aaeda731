// What the chat panel's host side runs for one chat, driven by a flood agent (bench/fixtures/
// floodAgent.mjs) as a real child process: AcpClient (transport) -> tap -> MessageStore.ingest ->
// the shipped panel feed (PanelSource -> PanelFeed, a frame every 16 ms) -> JSON.stringify of each post.
// Shared by bench/endToEnd.bench.ts and bench/multiChat.bench.ts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { AcpClient } from '../../src/node/acp/client';
import { MessageStore, type StoreDelta } from '../../src/common/store';
import { settleAfterRead } from '../../src/common/store/chunkRun';
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

export interface PipelineOptions {
  /** Another agent than the flood agent (its script), with its environment, over stdio. */
  agent?: { script: string; env: NodeJS.ProcessEnv };
  /** Another link than stdio to the flood agent (e.g. a WebSocket to bench/fixtures/floodServer.mjs). */
  link?: (chunks: number) => FloodLink | Promise<FloodLink>;
  /** After each 16 ms frame, with the chat's store and session (null before session/new answered). */
  onFrame?: (store: MessageStore, sessionId: string | null) => void;
}

/** An agent script as a child process over stdio (the default link). */
function stdioLink(script: string, env: NodeJS.ProcessEnv): FloodLink {
  const child = spawn(process.execPath, [script], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  return { input: child.stdout, output: child.stdin, stop: () => child.kill() };
}

/**
 * One chat: starts the flood agent for `chunks` chunks (over stdio unless `link` is given; or `agent`),
 * drains one prompt's answer, stops the agent.
 */
export async function runPipeline(chunks: number, o: PipelineOptions = {}): Promise<PipelineRun> {
  const t = performance.now();
  const agent = o.link ? await o.link(chunks) : o.agent ? stdioLink(o.agent.script, o.agent.env) : stdioLink(FLOOD_AGENT, floodEnv(chunks));
  const store = new MessageStore();
  let sessionId: string | null = null;
  let posted = 0;
  const source = new PanelSource();
  const feed = new PanelFeed(
    (m) => (posted += JSON.stringify(m).length),
    () => performance.now(),
  );
  source.onDidChange((c) => feed.changed(c));
  const frame = setInterval(() => {
    feed.frame();
    o.onFrame?.(store, sessionId);
  }, 16);
  const report = (changes: readonly StoreDelta[]) => source.storeChanged(changes, sessionId, () => (sessionId ? store.session(sessionId) : undefined));
  const settleLater = settleAfterRead(store, report);
  const client = new AcpClient({
    input: agent.input,
    output: agent.output,
    // The flood agent asks nothing; a request would be a bench bug, answered as dismissed.
    handlers: { requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    clientInfo: { name: 'bench', version: '0' },
    tap: (dir, msg, _raw, checked) => {
      // As ChatTraffic does: a text chunk continuing the open message is joined with the rest of the read.
      const changes = checked ? store.ingestChecked(dir, checked, undefined, true) : store.ingest(dir, msg);
      if (changes.length) report(changes);
      settleLater();
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
