/**
 * Every method name the ACP schemas define, per protocol version and per direction, taken from the
 * `x-method` marks of ../shared/acp/schema (SDK 2.4.0: v1 stable + unstable, v2 stable + unstable).
 * The conformance check uses it to tell a method that is merely not implemented here from one that
 * exists in no schema. Names the client implements come from protocol/methods.ts; this list adds the
 * ones it does not (elicitation, unstable and v2 names) as data.
 */
import { AgentMethods, AgentMethodsV2, ClientMethods, ProtocolMethods } from '../protocol/methods';
import type { ProtocolVersion } from '../protocol/methods';

/** Methods the agent handles (the client sends them). */
const AGENT_SIDE_V1 = [
  ...Object.values(AgentMethods),
  // unstable v1 (session/fork, set_title, archive, unarchive are in AgentMethods)
  'session/status',
  'providers/list',
  'providers/set',
  'providers/disable',
  'auth/status',
  'proxy/initialize',
  'proxy/successor',
  'mcp/message',
];

/** Methods the client handles (the agent sends them). */
const CLIENT_SIDE_V1 = [...Object.values(ClientMethods), 'auth/status_update', 'mcp/message', 'proxy/successor'];

const V2_DROPPED = new Set<string>([AgentMethods.authenticate, AgentMethods.logout, AgentMethods.sessionLoad, AgentMethods.sessionSetMode]);
const AGENT_SIDE_V2 = [...AGENT_SIDE_V1.filter((m) => !V2_DROPPED.has(m)), ...Object.values(AgentMethodsV2), 'tool_call/cancel', 'terminal/cancel'];
const CLIENT_SIDE_V2 = [
  ClientMethods.sessionUpdate,
  ClientMethods.sessionRequestPermission,
  ClientMethods.elicitationCreate,
  ClientMethods.elicitationComplete,
  'auth/status_update',
  'mcp/message',
  'proxy/successor',
];

const BOTH = Object.values(ProtocolMethods) as string[];

const TABLE = {
  1: { agentSide: new Set<string>([...AGENT_SIDE_V1, ...BOTH]), clientSide: new Set<string>([...CLIENT_SIDE_V1, ...BOTH]) },
  2: { agentSide: new Set<string>([...AGENT_SIDE_V2, ...BOTH]), clientSide: new Set<string>([...CLIENT_SIDE_V2, ...BOTH]) },
} as const;

export type MethodVerdict = 'known' | 'extension' | 'wrong-direction' | 'other-version' | 'unknown';

/** How the schema of `version` sees a method the agent sent (so the client handles it). */
export function classifyAgentMethod(method: string, version: ProtocolVersion): MethodVerdict {
  if (method.startsWith('_')) return 'extension';
  const t = TABLE[version];
  if (t.clientSide.has(method)) return 'known';
  if (t.agentSide.has(method)) return 'wrong-direction';
  const other = TABLE[version === 1 ? 2 : 1];
  if (other.clientSide.has(method)) return 'other-version';
  return 'unknown';
}

/** `sessionUpdate` variants per version (stable + unstable schema). */
const UPDATE_KINDS: Record<ProtocolVersion, ReadonlySet<string>> = {
  1: new Set([
    'user_message_chunk',
    'agent_message_chunk',
    'agent_thought_chunk',
    'tool_call',
    'tool_call_update',
    'plan',
    'available_commands_update',
    'current_mode_update',
    'config_option_update',
    'session_info_update',
    'usage_update',
    'notice',
    'compaction_update',
    'compaction_summary_chunk',
    // unstable
    'plan_update',
    'plan_removed',
    'subagent_update',
    'session_message',
    'session_message_chunk',
  ]),
  2: new Set([
    'user_message',
    'user_message_chunk',
    'agent_message',
    'agent_message_chunk',
    'agent_thought',
    'agent_thought_chunk',
    'tool_call_update',
    'tool_call_content_chunk',
    'plan_update',
    'available_commands_update',
    'config_option_update',
    'session_info_update',
    'usage_update',
    'notice',
    'compaction_update',
    'compaction_summary_chunk',
    'state_update',
    'terminal_update',
    'terminal_output_chunk',
    // unstable
    'plan_removed',
    'subagent_update',
    'session_message',
    'session_message_chunk',
  ]),
};

/** Whether `kind` is a `sessionUpdate` variant of `version` (v2 enums are open to `_vendor` names). */
export function isUpdateKind(kind: string, version: ProtocolVersion): boolean {
  return UPDATE_KINDS[version].has(kind) || (version === 2 && kind.startsWith('_'));
}
