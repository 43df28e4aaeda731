// The demo agent asked for protocol 2: it speaks the v2 draft, every message of both directions
// validates against the v2 schema, a turn uses every v2 update kind, and the store builds the
// transcript from it without an error.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Message } from 'vscode-jsonrpc';
import { MessageStore } from '../../../src/common/store';
import type { Direction } from '../../../src/node/acp/client';
import { demoPair } from '../helpers/demoPair';
import { corpus } from './messages';

const ws = mkdtempSync(path.join(tmpdir(), 'demo-v2-'));
writeFileSync(path.join(ws, 'README.md'), '# demo\n');
after(() => rmSync(ws, { recursive: true, force: true }));

function connect() {
  const wire: { dir: Direction; msg: Message }[] = [];
  const store = new MessageStore();
  const { client, dispose } = demoPair({
    client: {
      protocolVersion: 2,
      tap: (dir: Direction, msg: Message) => {
        wire.push({ dir, msg });
        store.ingest(dir, msg);
      },
    },
  });
  return { client, wire, store, dispose };
}

describe('demo agent, v2 draft', () => {
  it('negotiates 2 and runs a turn with every v2 update kind, all schema-valid', async () => {
    const c = connect();
    const init = await c.client.initialize();
    assert.equal(init.protocolVersion, 2);
    const { sessionId } = await c.client.newSession({ cwd: ws, mcpServers: [] });
    const r = await c.client.prompt(sessionId, [{ type: 'text', text: 'please edit and run something' }]);
    assert.equal(r.stopReason, 'end_turn');
    assert.equal(r.messageId, 'user-1');
    await c.client.prompt(sessionId, [{ type: 'text', text: '/compact' }]);
    await c.client.setConfigOption(sessionId, 'mode', 'code');
    c.dispose();

    const v2 = corpus(2, 1);
    const kinds = new Set<string>();
    for (const { msg: m } of c.wire) {
      const msg = m as Message & { method?: string; params?: unknown };
      assert.ok(v2.v.message(msg), `not v2-valid: ${JSON.stringify(msg)}\n${JSON.stringify(v2.v.message.errors?.slice(0, 3))}`);
      if (msg.method === 'session/update') {
        const p = msg.params as { update: { sessionUpdate: string } };
        assert.ok(v2.v.def('UpdateSessionNotification')(p), `update not v2-valid: ${JSON.stringify(p)}`);
        kinds.add(p.update.sessionUpdate);
      }
      if (msg.method === 'session/request_permission') assert.ok(v2.v.def('RequestPermissionRequest')(msg.params), JSON.stringify(msg.params));
    }
    const all = (v2.root.$defs as { SessionUpdate: { anyOf: { properties?: { sessionUpdate?: { const?: string } } }[] } }).SessionUpdate.anyOf.flatMap(
      (a) => a.properties?.sessionUpdate?.const ?? [],
    );
    assert.deepEqual(
      all.filter((k) => !kinds.has(k)),
      [],
    );

    assert.deepEqual(
      c.store.diagnostics().filter((d) => d.severity === 'error'),
      [],
    );
    const s = c.store.session(sessionId);
    const kindsShown = s?.entries.map((e) => e.kind) ?? [];
    assert.ok(kindsShown.includes('user_message') && kindsShown.includes('agent_thought') && kindsShown.includes('tool_call'));
    const edit = s?.entries.find((e) => e.kind === 'tool_call' && e.toolCallId === 'tool-1-edit');
    assert.ok(edit && edit.kind === 'tool_call' && edit.status === 'completed');
    assert.equal(edit.content[0]?.type, 'diff');
    assert.match(readFileSync(path.join(ws, 'demo-edit.txt'), 'utf8'), /Edited by the ACP Chat demo agent \(turn 1\)/);
    assert.deepEqual(
      s?.configOptions.map((o) => o.id),
      ['mode', 'model'],
    );
  });
});
