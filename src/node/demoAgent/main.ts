/**
 * Entry of dist/demo-agent.js: the demo agent on this process's stdio (NDJSON). Logs go to stderr;
 * stdout carries nothing but ACP messages. Exits when the client closes stdin.
 *   ACP_DEMO_DELAY_MS overrides the pause between streamed chunks (default 5).
 *   ACP_DEMO_REPLAY lists the shapes session/load replays in (see replay.ts), e.g. "no-thoughts,merged".
 *   ACP_DEMO_SESSION_OPS=off: neither offer nor answer fork, set_title, archive, delete and logout.
 *   ACP_DEMO_AUTH_FILE=PATH: require signing in, remembered in PATH (see auth.ts).
 *   ACP_DEMO_STEERING=on: offer `_session/steering` into a running turn (see steering.ts).
 *   ACP_DEMO_FAULT=crash-on-prompt|crash-mid-turn|crash-mid-permission|silent|ignore-cancel: misbehave (faults.ts).
 *   ACP_DEMO_LATE_MS: with ignore-cancel, go on with the turn this long after the cancel (late updates).
 *   ACP_DEMO_FORK_AT_MESSAGE=on: `session/fork` also forks at a message (the draft's `fork.atMessageId`).
 *   ACP_DEMO_SESSION_LIST=off: no `session/list` (an agent that cannot list its sessions).
 *   ACP_DEMO_SESSIONS_FILE=PATH: sessions it had before it started, listed and loadable (savedSessions.ts).
 *   ACP_DEMO_EDIT=disk: the edit of demo-edit.txt is written on disk by the agent itself, not through fs/write_text_file (tools.ts).
 * With `--login` it is instead the interactive sign-in a terminal auth method runs (auth.ts).
 */
import { createAcpConnection } from '../transport/connection';
import { DemoAgent } from './agent';
import { LOGIN_ARG, LOGIN_AUTO_ENV, runLogin } from './auth';
import { parseReplayShapes } from './replay';
import { parseDemoFault } from './faults';
import { savedSessions } from './savedSessions';

const authFile = process.env.ACP_DEMO_AUTH_FILE || undefined;

if (process.argv.includes(LOGIN_ARG)) {
  void runLogin(authFile, process.env[LOGIN_AUTO_ENV] === '1', process.stdin, process.stdout).then((code) => process.exit(code));
} else {
  const delay = Number(process.env.ACP_DEMO_DELAY_MS ?? '5');
  const acp = createAcpConnection({
    input: process.stdin,
    output: process.stdout,
    log: (level, message) => {
      if (level !== 'debug') process.stderr.write(`[demo-agent] ${level}: ${message}\n`);
    },
  });
  const replay = parseReplayShapes(process.env.ACP_DEMO_REPLAY, (m) => process.stderr.write(`[demo-agent] warn: ${m}\n`));
  new DemoAgent(acp, {
    delayMs: Number.isFinite(delay) && delay >= 0 ? delay : 5,
    replay,
    sessionOps: process.env.ACP_DEMO_SESSION_OPS !== 'off',
    steering: process.env.ACP_DEMO_STEERING === 'on',
    fault: parseDemoFault(process.env.ACP_DEMO_FAULT, (m) => process.stderr.write(`[demo-agent] warn: ${m}\n`)),
    ...(Number(process.env.ACP_DEMO_LATE_MS) >= 0 && process.env.ACP_DEMO_LATE_MS ? { lateAfterCancelMs: Number(process.env.ACP_DEMO_LATE_MS) } : {}),
    // Exit once what was written (a permission request) is out: the client must see it before the crash.
    crash: () => process.stdout.write('', () => process.exit(70)),
    forkAtMessage: process.env.ACP_DEMO_FORK_AT_MESSAGE === 'on',
    listSessions: process.env.ACP_DEMO_SESSION_LIST !== 'off',
    sessions: savedSessions(process.env.ACP_DEMO_SESSIONS_FILE, (m) => process.stderr.write(`[demo-agent] warn: ${m}\n`)),
    ...(authFile ? { authFile } : {}),
  });
  acp.connection.onClose(() => process.exit(0));
  acp.connection.listen();
}
