/**
 * Activation is cheap: it registers commands, the tree and the panel serializer, but starts no agent and
 * reads no saved chat while activating (they are opened a moment later, or by the first chat). (test/host/index.ts
 * loads this file first.)
 */
import * as assert from 'assert';
import { api } from './util';

suite('Activation', () => {
  test('activating starts no agent and opens no chat', async () => {
    const a = await api();
    assert.strictEqual(a.service.existingSession(), undefined, 'no chat session was created');
    assert.deepStrictEqual(a.transcript(), []);
    assert.deepStrictEqual(a.service.tree.getChildren(), [], 'the message tree is empty');
  });
});
