// An in-process agent link for ChatController tests: the real DemoAgent (or any agent built on the
// transport) on one end of two PassThrough streams, the real AcpClient on the other, built by the links'
// own wiring (linkClient: every option the chat passes, onInvalidLine included). No subprocess.
import { PassThrough } from 'node:stream';
import type { AgentLink, ConnectAgent } from '../../../src/node/acp/agentLink';
import { linkClient } from '../../../src/node/acp/agentLink';
import { createAcpConnection, type AcpConnection } from '../../../src/node/transport/connection';
import { DemoAgent } from '../../../src/node/demoAgent/agent';
import { MessageStore } from '../../../src/common/store';
import { parseSettings } from '../../../src/common/config/settings';
import type { ChatOptions, ChatUi } from '../../../src/node/chat/chatController';

export interface InProcessAgent {
  readonly connect: ConnectAgent;
  /** Simulates a crash: the agent's streams end. */
  crash(): void;
  connections: number;
  /** The last link made (for a test's own round trip to the agent, `probe`). */
  link: AgentLink | undefined;
}

export function inProcessDemoAgent(make: (acp: AcpConnection) => void = (acp) => new DemoAgent(acp, { delayMs: 0 })): InProcessAgent {
  let current: { toAgent: PassThrough; toClient: PassThrough } | undefined;
  const self: InProcessAgent = {
    connections: 0,
    link: undefined,
    crash() {
      current?.toClient.end();
      current?.toAgent.end();
    },
    connect: async (o) => {
      self.connections++;
      const toAgent = new PassThrough();
      const toClient = new PassThrough();
      current = { toAgent, toClient };
      const agent = createAcpConnection({ input: toAgent, output: toClient });
      make(agent);
      agent.connection.listen();
      const client = linkClient(o, toClient, toAgent, () => undefined);
      const listeners: ((reason: string) => void)[] = [];
      client.onDidClose((reason) => listeners.splice(0).forEach((l) => l(reason)));
      const link: AgentLink = {
        client,
        onExit: (l) => listeners.push(l),
        stderrTail: () => 'agent stderr tail',
        dispose: () => {
          client.dispose();
          agent.connection.dispose();
        },
      };
      self.link = link;
      return link;
    },
  };
  return self;
}

/** A UI that does nothing: these tests look at the chat's state, not at VS Code. */
export const noUi: ChatUi = {
  openLink() {},
  openLocation() {},
  openDiff() {},
  copy() {},
  revealInTree() {},
  exportMarkdown() {},
  async chooseAuthMethod() {
    return undefined;
  },
  permissionAsked() {},
  openElicitationUrl() {},
};

/** ChatController options for a test: an agent link plus whatever the test cares about; the rest inert. */
export function chatOptions(over: Partial<ChatOptions> & Pick<ChatOptions, 'connect'>): ChatOptions {
  const settings = parseSettings(() => undefined).settings;
  return {
    agent: { id: 'demo', name: 'Demo', command: 'x', args: [], env: {} },
    cwd: '/tmp',
    store: new MessageStore(),
    restoredSessionId: null,
    settings: () => settings,
    handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    sinks: { capture: () => undefined, persist: () => undefined },
    ui: noUi,
    log: () => undefined,
    records: () => [],
    ...over,
  };
}
