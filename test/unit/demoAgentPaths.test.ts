// The demo agent is the reference every new user meets first: in both protocols, every way a user can
// end a turn early (reject an edit once or always, dismiss the request, cancel while asked or while it
// streams) must leave a capture the conformance checker has nothing to say about, and the session must
// take the next prompt.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import { ConformanceChecker } from '../../src/common/conformance';
import { MessageStore } from '../../src/common/store';
import type { RequestPermissionParams, RequestPermissionResult } from '../../src/common/protocol/requests';
import type { Direction } from '../../src/node/acp/client';
import { nodeWriteTextFile } from '../../src/node/acp/nodeHandlers';
import { until } from '../helpers/until.mjs';
import { demoPair } from './helpers/demoPair';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-paths-'));
writeFileSync(path.join(ws, 'README.md'), '# demo\n');
after(() => rmSync(ws, { recursive: true, force: true }));

type Answer = (p: RequestPermissionParams) => Promise<RequestPermissionResult>;
const choose =
  (kind: string): Answer =>
  async (p) => {
    const o = p.options.find((x) => x.kind === kind);
    assert.ok(o, `the demo offers ${kind}`);
    return { outcome: { outcome: 'selected', optionId: o.optionId } };
  };
const never: Answer = () => new Promise(() => undefined);

function connect(protocolVersion: 1 | 2, answer: Answer) {
  const checker = new ConformanceChecker();
  const store = new MessageStore();
  let line = 0;
  const wire: { dir: Direction; msg: Message }[] = [];
  const { client, dispose } = demoPair({
    client: {
      protocolVersion,
      handlers: { requestPermission: (p) => answer(p), writeTextFile: (p) => nodeWriteTextFile(p) },
      tap: (dir: Direction, msg: Message) => {
        wire.push({ dir, msg });
        checker.observe(dir, msg, ++line);
        store.ingest(dir, msg);
      },
    },
  });
  return { client, checker, store, wire, dispose };
}

for (const version of [1, 2] as const) {
  describe(`demo agent, protocol ${version}: reject and cancel paths are clean`, () => {
    const paths: { name: string; answer: Answer; cancel?: (c: ReturnType<typeof connect>, sid: string) => Promise<void>; stop: string; status: string | readonly string[] }[] = [
      { name: 'reject once (Esc)', answer: choose('reject_once'), stop: 'end_turn', status: 'rejected' },
      { name: 'always reject', answer: choose('reject_always'), stop: 'end_turn', status: 'rejected' },
      { name: 'request dismissed', answer: async () => ({ outcome: { outcome: 'cancelled' } }), stop: 'end_turn', status: 'failed' },
      {
        name: 'cancel while asked',
        answer: never,
        cancel: async (c, sid) => {
          await until(() => c.client.pendingPermissionCount(sid) > 0, 'the permission request');
          c.client.cancel(sid);
        },
        stop: 'cancelled',
        status: 'cancelled',
      },
      {
        name: 'cancel while streaming',
        answer: never,
        cancel: async (c, sid) => {
          await until(() => c.wire.some((w) => JSON.stringify(w.msg).includes('agent_message_chunk')), 'the first streamed chunk');
          c.client.cancel(sid);
        },
        stop: 'cancelled',
        // The cancel lands before the edit's tool call is announced, or (on a busy machine) after it: then
        // the call is cancelled with the turn, never left pending or run.
        status: ['none', 'cancelled'],
      },
    ];
    for (const p of paths) {
      it(p.name, async () => {
        const c = connect(version, p.answer);
        await c.client.initialize();
        const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
        const turn = c.client.prompt(sessionId, [{ type: 'text', text: 'please edit a file' }]);
        await p.cancel?.(c, sessionId);
        assert.equal((await turn).stopReason, p.stop);
        // The session takes the next prompt, and that turn is clean too.
        assert.equal((await c.client.prompt(sessionId, [{ type: 'text', text: 'hello again' }])).stopReason, 'end_turn');
        c.checker.finish();
        assert.deepEqual(c.checker.findings(), []);
        const edit = c.store.session(sessionId)?.entries.find((e) => e.kind === 'tool_call' && e.toolCallId.endsWith('-edit'));
        const status = edit?.kind === 'tool_call' ? edit.status : 'none';
        assert.ok([p.status].flat().includes(status), `the edit's status: ${status}`);
        c.dispose();
      });
    }
  });
}
