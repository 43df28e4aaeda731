import { test } from 'node:test';
import assert from 'node:assert/strict';
import { panelDeltasFor } from '../../../src/common/webview/panelDeltas';
import type { MessageEntry, SessionState } from '../../../src/common/store/model';

const stats = { chunks: 1, upserts: 0, bytes: 1, firstSeen: 0, lastSeen: 0, lines: [] };
const entry: MessageEntry = { kind: 'agent_message', key: 'k', messageId: null, content: [], meta: null, provenance: 'live', stats };
const session: SessionState = {
  sessionId: 's',
  parentSessionId: null,
  protocolVersion: 1,
  entries: [entry],
  plan: [{ content: 'a', priority: 'high', status: 'pending' }],
  plans: [],
  setup: null,
  currentModeId: 'code',
  availableModes: [],
  availableCommands: [],
  configOptions: [],
  usage: null,
  title: 'T',
  updatedAt: null,
  terminals: {},
};

test("only the shown session reaches the panel, as the store's own deltas; appended text stays appended text", () => {
  const { panel, diagnostics } = panelDeltasFor(
    [
      { type: 'entryInserted', sessionId: 's', index: 0, entry },
      { type: 'entryUpdated', sessionId: 's', index: 0, entry, appendedText: 'x' },
      { type: 'entryUpdated', sessionId: 'other', index: 0, entry },
      { type: 'diagnostic', diagnostic: { severity: 'warning', message: 'unknown update kind' } },
    ],
    's',
    session,
  );
  assert.deepEqual(panel, [
    { type: 'entryInserted', sessionId: 's', index: 0, entry },
    { type: 'entryUpdated', sessionId: 's', index: 0, entry, appendedText: 'x' },
  ]);
  assert.equal(diagnostics.length, 1);
});

test('changed session fields become one panel change with their current values; unknown fields are ignored', () => {
  const { panel } = panelDeltasFor([{ type: 'sessionChanged', sessionId: 's', fields: ['plan', 'title', 'updatedAt'] }], 's', session);
  assert.deepEqual(panel, [{ type: 'panel', fields: { plan: session.plan, title: 'T' } }]);
});
