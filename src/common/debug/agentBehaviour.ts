/**
 * What an agent advertised and what it actually does, observed from the wire: capabilities from
 * `initialize` and session results, whether it sends `messageId` (per update kind), which methods
 * outside the ACP catalogue it used, and the ordering quirks clients trip over. Rendered as Markdown
 * with a "why" line for every feature that is off.
 */
import { AgentMethods, ClientMethods, PROTOCOL_V2, ProtocolMethods } from '../protocol/methods';
import { zInitializeResultV2 } from '../protocol/requests';
import { isRecord as isObj } from '../util/guards';

type Json = Record<string, unknown>;
const KNOWN_METHODS = new Set<string>([...Object.values(AgentMethods), ...Object.values(ClientMethods), ...Object.values(ProtocolMethods)]);
const ID_KINDS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'user_message', 'agent_message', 'agent_thought']);

export interface UpdateKindStats {
  count: number;
  withMessageId: number;
}

export interface BehaviourReport {
  readonly initialize: { protocolVersion: unknown; agentInfo: unknown; agentCapabilities: Json; authMethods: unknown[] } | null;
  readonly sessions: { sessionId: string; via: string; modes: string[]; configOptions: string[] }[];
  readonly updateKinds: Readonly<Record<string, UpdateKindStats>>;
  readonly nonStandardMethods: readonly string[];
  readonly updatesBeforeSessionResult: number;
  readonly updatesAfterPromptResult: number;
  readonly echoedPrompt: boolean;
}

export class AgentBehaviour {
  private init: BehaviourReport['initialize'] = null;
  private readonly sessions: BehaviourReport['sessions'] = [];
  /** Keyed by the agent's `sessionUpdate` strings: a null-prototype object, so `__proto__` is a kind like any other. */
  private readonly kinds: Record<string, UpdateKindStats> = Object.create(null) as Record<string, UpdateKindStats>;
  private readonly nonStandard = new Set<string>();
  private readonly pending = new Map<string, string>();
  private sessionKnown = false;
  private turnOpen = false;
  private promptSent = false;
  private before = 0;
  private after = 0;
  private echoed = false;

  observe(dir: string, msg: unknown): void {
    if (!isObj(msg)) return;
    const method = typeof msg['method'] === 'string' ? msg['method'] : undefined;
    if (method !== undefined) {
      if (!KNOWN_METHODS.has(method)) this.nonStandard.add(`${dir === 'client->agent' ? '→' : '←'} ${method}`);
      if ('id' in msg) this.pending.set(`${dir}|${JSON.stringify(msg['id'])}`, method);
      if (method === AgentMethods.sessionPrompt) {
        this.turnOpen = true;
        this.promptSent = true;
      }
      if (method === ClientMethods.sessionUpdate && dir === 'agent->client') this.onUpdate(msg['params']);
      return;
    }
    const requestDir = dir === 'client->agent' ? 'agent->client' : 'client->agent';
    const key = `${requestDir}|${JSON.stringify(msg['id'])}`;
    const req = this.pending.get(key);
    this.pending.delete(key);
    if (!req || !isObj(msg['result'])) {
      if (req === AgentMethods.sessionPrompt) this.turnOpen = false;
      return;
    }
    const result = msg['result'];
    switch (req) {
      case AgentMethods.initialize: {
        // A v2 agent names its capabilities `info` / `capabilities`: read them through the same
        // normalisation the client uses, so the report says what the client will actually do.
        const v2 = result['protocolVersion'] === PROTOCOL_V2 ? zInitializeResultV2.safeParse(result) : undefined;
        const r: Json = v2?.success ? v2.data : result;
        this.init = {
          protocolVersion: r['protocolVersion'],
          agentInfo: r['agentInfo'] ?? null,
          agentCapabilities: isObj(r['agentCapabilities']) ? r['agentCapabilities'] : {},
          authMethods: Array.isArray(r['authMethods']) ? r['authMethods'] : [],
        };
        break;
      }
      case AgentMethods.sessionNew:
      case AgentMethods.sessionLoad:
      case AgentMethods.sessionResume: {
        this.sessionKnown = true;
        const modes =
          isObj(result['modes']) && Array.isArray(result['modes']['availableModes']) ? result['modes']['availableModes'].map((m) => (isObj(m) ? String(m['id']) : '?')) : [];
        const configOptions = Array.isArray(result['configOptions'])
          ? result['configOptions'].map((c) => (isObj(c) ? `${String(c['id'])}${c['category'] ? ` (${String(c['category'])})` : ''}` : '?'))
          : [];
        const sessionId = typeof result['sessionId'] === 'string' ? result['sessionId'] : '(same)';
        this.sessions.push({ sessionId, via: req, modes, configOptions });
        break;
      }
      case AgentMethods.sessionPrompt:
        this.turnOpen = false;
        break;
    }
  }

  private onUpdate(params: unknown): void {
    if (!isObj(params) || !isObj(params['update'])) return;
    const u = params['update'];
    const kind = String(u['sessionUpdate']);
    const s = (this.kinds[kind] ??= { count: 0, withMessageId: 0 });
    s.count++;
    if (typeof u['messageId'] === 'string') s.withMessageId++;
    if (!this.sessionKnown) this.before++;
    if (this.promptSent && !this.turnOpen) this.after++;
    if (kind === 'user_message_chunk' && this.turnOpen) this.echoed = true;
  }

  report(): BehaviourReport {
    return {
      initialize: this.init,
      sessions: this.sessions,
      updateKinds: this.kinds,
      nonStandardMethods: [...this.nonStandard].sort(),
      updatesBeforeSessionResult: this.before,
      updatesAfterPromptResult: this.after,
      echoedPrompt: this.echoed,
    };
  }
}

const on = (x: unknown): boolean => x === true || isObj(x);

/** The report as Markdown: advertised features, observed behaviour, and why each missing feature is off. */
export function behaviourMarkdown(agentName: string, r: BehaviourReport): string {
  const caps = r.initialize?.agentCapabilities ?? {};
  const session = isObj(caps['sessionCapabilities']) ? caps['sessionCapabilities'] : {};
  const prompt = isObj(caps['promptCapabilities']) ? caps['promptCapabilities'] : {};
  const row = (feature: string, enabled: boolean, why: string) => `| ${feature} | ${enabled ? 'yes' : 'no'} | ${enabled ? '' : why} |`;
  const lines = [
    `# ${agentName}: capabilities and behaviour`,
    '',
    r.initialize ? `Protocol version **${String(r.initialize.protocolVersion)}** · agent ${JSON.stringify(r.initialize.agentInfo)}` : '*No initialize response seen yet.*',
    '',
    '## Advertised',
    '',
    '| feature | on | what it means when off |',
    '|---|---|---|',
    row('session/load', caps['loadSession'] === true, 'Restart can only reattach with session/resume, else starts a new session.'),
    row('session/resume', on(session['resume']), 'Restart replays history with session/load (or starts a new session).'),
    row('session/list', on(session['list']), 'No history picker for this agent.'),
    row('session/close', on(session['close']), 'Sessions end when the agent process stops.'),
    row('images in prompts', prompt['image'] === true, 'Pasted images are not sent.'),
    row('embedded context', prompt['embeddedContext'] === true, '@-mentions are sent as resource_link (the agent reads the file itself).'),
    row('authentication', (r.initialize?.authMethods.length ?? 0) > 0, 'The agent does not ask to sign in.'),
    '',
    '## Sessions',
    '',
    ...(r.sessions.length
      ? r.sessions.map((s) => `- \`${s.sessionId}\` via ${s.via}: modes ${s.modes.join(', ') || '(none)'}; config options ${s.configOptions.join(', ') || '(none)'}`)
      : ['*none yet*']),
    '',
    '## Observed',
    '',
    '| update kind | count | with messageId |',
    '|---|---|---|',
    ...Object.entries(r.updateKinds).map(([k, s]) => `| ${k} | ${s.count} | ${ID_KINDS.has(k) ? `${s.withMessageId}` : 'n/a'} |`),
    '',
  ];
  const noIds = Object.entries(r.updateKinds)
    .filter(([k, s]) => ID_KINDS.has(k) && s.count > 0 && s.withMessageId === 0)
    .map(([k]) => k);
  if (noIds.length) lines.push(`- Sends no \`messageId\` on ${noIds.join(', ')}: message boundaries are inferred from update kinds.`);
  if (r.nonStandardMethods.length) lines.push(`- Methods outside the ACP catalogue: ${r.nonStandardMethods.map((m) => `\`${m}\``).join(', ')}.`);
  if (r.updatesBeforeSessionResult) lines.push(`- Sent ${r.updatesBeforeSessionResult} updates before its session result (buffered, not lost).`);
  if (r.updatesAfterPromptResult) lines.push(`- Sent ${r.updatesAfterPromptResult} updates after a prompt had been answered (applied, not dropped).`);
  if (r.echoedPrompt) lines.push('- Echoes the user prompt as user_message_chunk (merged into the local prompt, not shown twice).');
  return lines.join('\n') + '\n';
}
