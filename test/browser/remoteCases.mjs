// Browser check of issue 44's header: an agent reached by URL shows where it runs beside its name (plain
// text, never a link), and while its link is down the banner says offline and when the next attempt is.
// A local agent shows no origin. Registered by run.mjs; screenshot test-results/webview-remote-offline.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { message, panel, snapshot, patch } from './fixtures.mjs';
import { root } from './server.mjs';

const shots = path.join(root, 'test-results');

export function register(test) {
  test('remote agent: its origin beside its name, the offline banner with the next attempt, none for a local agent', async ({ open }) => {
    const { page, send, flush } = await open();
    const offline =
      'Far agent (wss://agents.example.com) is offline: the connection to wss://agents.example.com ended (the connection was lost (WebSocket close 1006)). Reconnecting in 4 s (at 23:50:01), attempt 3 of 8; the transcript is kept.';
    await send(
      snapshot(
        [message('user_message', 'u1', 'Refactor the parser'), message('agent_message', 'a1', 'Reading the grammar first…')],
        panel({ agentName: 'Far agent', agentOrigin: 'wss://agents.example.com', turn: 'exited', message: offline }),
      ),
    );
    await flush();
    const origin = page.locator('.agent-origin');
    assert.equal(await origin.isVisible(), true);
    assert.equal(await origin.innerText(), 'wss://agents.example.com');
    assert.equal(await origin.getAttribute('title'), 'Far agent runs at wss://agents.example.com');
    assert.equal(await page.locator('.agent-origin a').count(), 0, 'text, not a link');
    assert.equal(await page.locator('.turn').innerText(), 'Offline');
    assert.match(await page.locator('.banner').innerText(), /is offline: .*Reconnecting in 4 s \(at 23:50:01\), attempt 3 of 8/);
    await page.screenshot({ path: path.join(shots, 'webview-remote-offline.png') });
    await send(patch({ op: 'panel', panel: { agentName: 'Demo Agent', agentOrigin: null, turn: 'idle', message: null } }));
    await flush();
    assert.equal(await origin.isVisible(), false, 'a local agent shows no origin');
    assert.equal(await page.locator('.turn').innerText(), 'Ready');
  });
}
