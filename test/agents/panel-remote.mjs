// The real-panel stage's remote agent (issue 44): a real agent reached by `url` instead of `command`. A
// loopback server built on the SDK's server side (`experimental/server` + `experimental/node`, with `ws` for
// upgrades) starts the recipe's agent command for each WebSocket connection it accepts and carries ACP between
// the two (each JSON line of the agent's stdout one message, each message one line on its stdin); the panel
// then runs the stage's usual checks through it. A connection that ends stops its agent, as a window reload
// ends a stdio agent: the next connection starts the agent again, and the chat reattaches (session/load).
// Which agents run this way: REAL_PANEL_REMOTE (space separated names; default `claude`, the older Claude
// Code adapter, whose script `claude-next` also runs over stdio), so the stage needs no extra code-server.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { WebSocketServer } from 'ws';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';

/** Whether the stage runs `name` by URL. */
export const runsRemote = (name) => (process.env.REAL_PANEL_REMOTE ?? 'claude').split(/\s+/).includes(name);

/** Carries one connection's messages to and from a new agent process; resolves when either side ends. */
function carry(stream, command, args, cwd, log) {
  const child = spawn(command, args, { cwd, env: process.env, stdio: ['pipe', 'pipe', 'inherit'] });
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let agentOut = Promise.resolve();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return log(`remote bridge: the agent printed a line that is not JSON: ${line.slice(0, 120)}`);
    }
    agentOut = agentOut.then(() => writer.write(msg)).catch(() => undefined);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const fromClient = (async () => {
    for (;;) {
      const r = await reader.read().catch(() => ({ done: true }));
      if (r.done) return;
      if (!child.stdin.destroyed) child.stdin.write(`${JSON.stringify(r.value)}\n`);
    }
  })();
  return Promise.race([exited, fromClient]).finally(() => {
    child.kill();
    void agentOut.then(() => writer.close()).catch(() => undefined);
  });
}

/** Starts the bridge on 127.0.0.1 (an ephemeral port); `url` is what `acpChat.agents` names. */
export async function startAgentBridge({ command, args, cwd, log }) {
  let connections = 0;
  const acp = new AcpServer({
    createAgent: () => ({
      connect(stream) {
        connections++;
        log(`remote bridge: connection ${connections}, starting the agent`);
        return { closed: carry(stream, command, args, cwd, log) };
      },
    }),
  });
  const wss = new WebSocketServer({ noServer: true });
  const upgrade = createNodeWebSocketUpgradeHandler(acp, wss);
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => upgrade(req, socket, head));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}/acp`,
    connections: () => connections,
    async stop() {
      for (const c of wss.clients) c.terminate();
      await acp.close().catch(() => undefined);
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The checks only a remote agent has, after the stage's own: the chat header names the agent's origin, and
 * the bridge saw the connections the run made (the first turn's, and a new one after the window reload).
 */
export async function remoteChecks({ bridge, check, chatFrame, page, reloaded }) {
  const origin = new URL(bridge.url).host;
  await check(`the chat header shows the agent's origin (${origin}), and the agent was reached by URL only`, async () => {
    const frame = await chatFrame(page, 60_000);
    const shown = (await frame.locator('.agent-origin').first().textContent()) ?? '';
    if (!shown.includes(origin)) throw new Error(`the header shows "${shown}"`);
    const want = reloaded ? 2 : 1;
    if (bridge.connections() < want) throw new Error(`${bridge.connections()} connections reached the bridge, expected ${want} or more`);
    return `header "${shown.trim()}"; ${bridge.connections()} WebSocket connections (the agent started once for each)`;
  });
}
