/**
 * The checker's rules that read one message and what was advertised, as plain functions (checker.ts keeps
 * the state and reports): which capability a call needed, whether the agent advertised a method it
 * answers, which auth methods the client cannot run, what is wrong with an error object or a form's schema.
 */
import { AgentMethods, ClientMethods, PROTOCOL_V1 } from '../protocol/methods';
import type { ProtocolVersion } from '../protocol/methods';
import { parseForm } from '../elicitation/form';
import { isObj, show } from './util';
import type { Json } from './util';

/** Methods the agent answers, and the capability (v1) that advertises each. */
const ADVERTISED_BY: Readonly<Record<string, (caps: Json) => boolean>> = {
  [AgentMethods.sessionLoad]: (c) => c['loadSession'] === true,
  [AgentMethods.sessionResume]: (c) => marker(c, 'sessionCapabilities', 'resume'),
  [AgentMethods.sessionList]: (c) => marker(c, 'sessionCapabilities', 'list'),
  [AgentMethods.sessionClose]: (c) => marker(c, 'sessionCapabilities', 'close'),
  [AgentMethods.sessionDelete]: (c) => marker(c, 'sessionCapabilities', 'delete'),
  [AgentMethods.logout]: (c) => marker(c, 'auth', 'logout'),
  // unstable schema
  [AgentMethods.sessionFork]: (c) => marker(c, 'sessionCapabilities', 'fork'),
  [AgentMethods.sessionSetTitle]: (c) => marker(c, 'sessionCapabilities', 'title'),
  [AgentMethods.sessionArchive]: (c) => marker(c, 'sessionCapabilities', 'archive'),
  [AgentMethods.sessionUnarchive]: (c) => marker(c, 'sessionCapabilities', 'archive'),
};

function marker(caps: Json, group: string, name: string): boolean {
  const g = caps[group];
  return isObj(g) && isObj(g[name]);
}

/** Whether the agent's v1 capabilities advertise `method`; undefined when no capability does. */
export function advertises(method: string, agentCaps: Json): boolean | undefined {
  return ADVERTISED_BY[method]?.(agentCaps);
}

/** The client capability an agent's call needed and the client did not advertise, or null. */
export function clientCapabilityNeeded(method: string, params: Json, clientCaps: Json, version: ProtocolVersion): string | null {
  const fs = isObj(clientCaps['fs']) ? clientCaps['fs'] : {};
  if (method === ClientMethods.fsReadTextFile && fs['readTextFile'] !== true) return 'clientCapabilities.fs.readTextFile';
  if (method === ClientMethods.fsWriteTextFile && fs['writeTextFile'] !== true) return 'clientCapabilities.fs.writeTextFile';
  if (method.startsWith('terminal/') && version === PROTOCOL_V1 && clientCaps['terminal'] !== true) return 'clientCapabilities.terminal';
  if (method === ClientMethods.elicitationCreate) {
    const mode = params['mode'] === 'url' ? 'url' : 'form';
    const el = clientCaps['elicitation'];
    if (!isObj(el) || !isObj(el[mode])) return `clientCapabilities.elicitation.${mode}`;
  }
  return null;
}

/** The ids of the `terminal` auth methods offered to a client that did not advertise `auth.terminal`. */
export function unadvertisedTerminalAuth(methods: unknown, clientCaps: Json): unknown[] {
  if (!Array.isArray(methods)) return [];
  const auth = clientCaps['auth'];
  if (isObj(auth) && auth['terminal'] === true) return [];
  return methods.flatMap((m) => (isObj(m) && m['type'] === 'terminal' ? [m['id']] : []));
}

/** What is wrong with a response's `error`, as the finding says it, or null when it is a valid error object. */
export function errorObjectProblem(error: unknown): string | null {
  if (!isObj(error)) return `"error" is ${show(error)}: send {"code": <integer>, "message": <string>}`;
  const problems: string[] = [];
  if (typeof error['code'] !== 'number' || !Number.isInteger(error['code'])) problems.push(`code ${show(error['code'])} is not an integer`);
  if (typeof error['message'] !== 'string') problems.push(`message ${show(error['message'])} is not a string`);
  return problems.length ? `error object: ${problems.join('; ')}: send {"code": <integer>, "message": <string>, "data"?: …}` : null;
}

/** Why a form elicitation's `requestedSchema` is outside the subset clients render, as the finding says it, or null. */
export function formSchemaProblem(params: Json): string | null {
  if (params['mode'] !== 'form' || params['requestedSchema'] === undefined) return null;
  const form = parseForm(params['requestedSchema']);
  if (form.ok) return null;
  const more = form.problems.length > 3 ? `; ${form.problems.length - 3} more` : '';
  return `requestedSchema is outside the restricted subset (${form.problems.slice(0, 3).join('; ')}${more}): use only flat string, number, integer, boolean and multi-select properties`;
}
