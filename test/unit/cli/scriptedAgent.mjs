// A scripted (hostile) ACP agent for `cli run` tests: `node scriptedAgent.mjs SCRIPT.json`.
// SCRIPT is a list of steps run during the first session/prompt:
//   { "request": METHOD, "params": {...} }  sends an agent->client request; the answer (result or error)
//                                           is reported back as an agent_message_chunk "RESULT <json>\n"
//   { "update": {...} }                      sends a session/update with this update
//   { "update": {...}, "session": ID }       ...on another session id (a subagent, or one nobody opened)
// then the turn ends with end_turn. `$SESSION` in params is replaced by the session id.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const script = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const sessionId = 'hostile-1';
let nextId = 1000;
const pending = new Map();

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
const update = (u, on = sessionId) => send({ method: 'session/update', params: { sessionId: on, update: u } });
const request = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    send({ id, method, params });
  });
const withSession = (v) => JSON.parse(JSON.stringify(v).replaceAll('$SESSION', sessionId));

async function prompt(id) {
  for (const step of script) {
    if (step.update) update(withSession(step.update), step.session);
    if (step.request) {
      const answer = await request(step.request, withSession(step.params));
      const shown = answer.error ? { error: { code: answer.error.code, message: answer.error.message } } : { result: answer.result };
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `RESULT ${JSON.stringify(shown)}\n` } });
    }
  }
  send({ id, result: { stopReason: 'end_turn' } });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.method === undefined && pending.has(msg.id)) {
    pending.get(msg.id)(msg);
    pending.delete(msg.id);
    return;
  }
  switch (msg.method) {
    case 'initialize':
      return send({ id: msg.id, result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'scripted', version: '1' } } });
    case 'session/new':
      return send({ id: msg.id, result: { sessionId } });
    case 'session/prompt':
      return void prompt(msg.id);
    default:
      if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: `unknown ${msg.method}` } });
  }
});
