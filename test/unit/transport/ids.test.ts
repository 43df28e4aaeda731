/** Request ids a JS number cannot hold: refused ones are answered (id null), huge integers round-trip digit for digit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestPermissionResult } from '../../../src/common/protocol/requests';
import { AcpClient } from '../../../src/node/acp/client';
import { FakeAgent, INIT_RESULT, openSession } from '../acp/fakeAgent';
import { until } from '../../helpers/until.mjs';

async function connected() {
  const agent = new FakeAgent();
  const lines: string[] = [];
  let buf = '';
  agent.toAgent.on('data', (c: string) => {
    buf += c;
    for (let nl; (nl = buf.indexOf('\n')) >= 0; buf = buf.slice(nl + 1)) lines.push(buf.slice(0, nl));
  });
  const client = new AcpClient({
    input: agent.toClient,
    output: agent.toAgent,
    clientInfo: { name: 'test', version: '0' },
    handlers: { requestPermission: () => new Promise<RequestPermissionResult>(() => undefined), readTextFile: async (p) => ({ content: `read ${p.path}` }) },
    log: () => undefined,
  });
  const init = client.initialize();
  agent.reply((await agent.expect('initialize')).id, INIT_RESULT);
  await init;
  // The agent's requests must name a session of this connection.
  await openSession(agent, client);
  /** The next raw line the client writes after `count` lines. */
  const lineAfter = async (count: number) => {
    await until(() => lines.length > count, `line ${count + 1}`);
    return lines[count]!;
  };
  return { agent, client, lines, lineAfter };
}

const read = (idText: string) => `{"jsonrpc":"2.0","id":${idText},"method":"fs/read_text_file","params":{"sessionId":"s","path":"/a"}}\n`;

describe('request ids', () => {
  for (const idText of ['1e400', '{"n":1}', '[1]', 'true', '-1e999']) {
    it(`answers a request with id ${idText} with Invalid Request, id null`, async () => {
      const s = await connected();
      const before = s.lines.length;
      s.agent.sendRaw(read(idText));
      const answer = JSON.parse(await s.lineAfter(before)) as { id: unknown; error?: { code: number } };
      assert.equal(answer.id, null);
      assert.equal(answer.error?.code, -32600);
      s.client.dispose();
    });
  }

  for (const idText of ['9007199254740993', '123456789012345678901234567890', '-9007199254740995', '9007199254740992']) {
    it(`answers id ${idText} with exactly that id`, async () => {
      const s = await connected();
      const before = s.lines.length;
      s.agent.sendRaw(read(idText));
      const line = await s.lineAfter(before);
      assert.ok(line.startsWith(`{"jsonrpc":"2.0","id":${idText},`), line);
      assert.deepEqual((JSON.parse(line) as { result: unknown }).result, { content: 'read /a' });
      s.client.dispose();
    });
  }

  it('keeps two huge ids that round to the same number apart', async () => {
    const s = await connected();
    const before = s.lines.length;
    s.agent.sendRaw(read('9007199254740993') + read('9007199254740992'));
    const answers = [await s.lineAfter(before), await s.lineAfter(before + 1)].map((l) => /"id":(\d+)/.exec(l)?.[1]).sort();
    assert.deepEqual(answers, ['9007199254740992', '9007199254740993']);
    s.client.dispose();
  });
});
