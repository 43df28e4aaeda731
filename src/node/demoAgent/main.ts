/**
 * Entry of dist/demo-agent.js: the demo agent on this process's stdio (NDJSON). Logs go to stderr;
 * stdout carries nothing but ACP messages. Exits when the client closes stdin.
 *   ACP_DEMO_DELAY_MS overrides the pause between streamed chunks (default 5).
 *   ACP_DEMO_REPLAY lists the shapes session/load replays in (see replay.ts), e.g. "no-thoughts,merged".
 */
import { createAcpConnection } from '../transport/connection';
import { DemoAgent } from './agent';
import { parseReplayShapes } from './replay';

const delay = Number(process.env.ACP_DEMO_DELAY_MS ?? '5');
const acp = createAcpConnection({
  input: process.stdin,
  output: process.stdout,
  log: (level, message) => {
    if (level !== 'debug') process.stderr.write(`[demo-agent] ${level}: ${message}\n`);
  },
});
const replay = parseReplayShapes(process.env.ACP_DEMO_REPLAY, (m) => process.stderr.write(`[demo-agent] warn: ${m}\n`));
new DemoAgent(acp, { delayMs: Number.isFinite(delay) && delay >= 0 ? delay : 5, replay });
acp.connection.onClose(() => process.exit(0));
acp.connection.listen();
