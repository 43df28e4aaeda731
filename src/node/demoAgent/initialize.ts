/** The demo agent's v1 `initialize` result: what it advertises, by the options it was made with (agent.ts). */
import { PROTOCOL_V1 } from '../../common/protocol/methods';
import type { ClientCapabilities } from '../../common/protocol/requests';
import type { DemoAuth } from './auth';
import * as text from './content';
import { sessionOpsCapabilities } from './sessionOps';
import { SETUP_CAPABILITIES } from './setup';
import { STEERING_META } from './steering';

interface Offers {
  readonly listSessions: boolean;
  readonly sessionOps: boolean;
  readonly forkAtMessage: boolean;
  readonly steering: boolean;
  readonly auth: DemoAuth;
}

export function v1InitializeResult(o: Offers, clientCaps: ClientCapabilities) {
  return {
    // v1 is all the demo speaks; per §1 we answer our latest version when asked for another.
    protocolVersion: PROTOCOL_V1,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: false, sse: false },
      sessionCapabilities: {
        resume: {},
        ...(o.listSessions ? { list: {} } : {}),
        close: {},
        ...SETUP_CAPABILITIES,
        ...(o.sessionOps ? sessionOpsCapabilities(o.forkAtMessage) : {}),
      },
      ...(o.sessionOps ? { auth: { logout: {} } } : {}),
    },
    authMethods: o.auth.methods(clientCaps.auth?.terminal === true),
    agentInfo: text.AGENT_INFO,
    ...(o.steering ? { _meta: STEERING_META } : {}),
  };
}
