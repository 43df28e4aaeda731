// What a chat opens its sessions with: the workspace's other folders as additionalDirectories and the
// user's system prompt, each only to an agent that advertises it; the demo agent says what it got.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettings } from '../../../src/common/config/settings';
import { ChatController } from '../../../src/node/chat/chatController';
import { mcpSkippedNotice, sessionParams, systemPromptParam } from '../../../src/node/chat/sessionParams';
import { chatOptions, inProcessDemoAgent } from './harness';

const settingsWith = (raw: Record<string, unknown>) => parseSettings((k) => raw[k]).settings;

describe('session setup', () => {
  it('sends additionalDirectories and the system prompt only to agents that advertise them', () => {
    const settings = settingsWith({ systemPrompt: '  Answer in French.  ', mcpServers: [{ name: 'bad' }] });
    const warnings: string[] = [];
    const base = { cwd: '/w/app', settings, additionalDirectories: ['/w/lib'], warn: (m: string) => warnings.push(m) };
    assert.deepEqual(sessionParams({ ...base, caps: {} }), { cwd: '/w/app', mcpServers: [] });
    assert.equal(warnings.length, 1, 'an invalid MCP server is said, not sent');
    assert.deepEqual(sessionParams({ ...base, caps: { sessionCapabilities: { additionalDirectories: {} } } }).additionalDirectories, ['/w/lib']);
    assert.deepEqual(
      sessionParams({ ...base, additionalDirectories: [], caps: { sessionCapabilities: { additionalDirectories: {} } } }),
      { cwd: '/w/app', mcpServers: [] },
      'none: omitted',
    );
    assert.deepEqual(systemPromptParam(settings, {}), {});
    assert.deepEqual(systemPromptParam(settings, { sessionCapabilities: { systemPrompt: {} } }), {
      systemPrompt: { mode: 'append', content: [{ type: 'text', text: 'Answer in French.' }] },
    });
    assert.deepEqual(systemPromptParam(settingsWith({}), { sessionCapabilities: { systemPrompt: {} } }), {}, 'no setting: nothing (never an empty content array)');
  });

  it('sends stdio MCP servers to every agent, http and sse only where mcpCapabilities allow, and names the others', () => {
    const servers = [
      { name: 'files', command: 'mcp-files', args: [], env: [] },
      { type: 'http', name: 'web', url: 'https://mcp.example/x', headers: [] },
      { type: 'sse', name: 'events', url: 'https://mcp.example/sse', headers: [] },
    ];
    const settings = settingsWith({ mcpServers: servers });
    const run = (caps: Parameters<typeof sessionParams>[0]['caps']) => {
      const skipped: string[][] = [];
      const p = sessionParams({ cwd: '/w', settings, additionalDirectories: [], caps, warn: () => undefined, skipped: (n) => skipped.push([...n]) });
      return { sent: p.mcpServers.map((m) => m.name), skipped };
    };
    assert.deepEqual(run({}), { sent: ['files'], skipped: [['web', 'events']] });
    assert.deepEqual(run({ mcpCapabilities: { http: true } }), { sent: ['files', 'web'], skipped: [['events']] });
    assert.deepEqual(run({ mcpCapabilities: { http: true, sse: true } }), { sent: ['files', 'web', 'events'], skipped: [] });
    const note = mcpSkippedNotice('Codex', ['web']);
    assert.equal(note.key, 'mcp-unsupported', 'one keyed notice, replaced rather than repeated');
    assert.match(note.title, /Codex cannot use the MCP server “web”/);
  });

  it('the demo agent gets the folders and the system prompt on session/new and says so', async () => {
    const agent = inProcessDemoAgent();
    const sent: unknown[] = [];
    const settings = settingsWith({ systemPrompt: 'Be brief.' });
    let folders = ['/w/lib', '/w/docs'];
    const session = new ChatController(
      chatOptions({
        connect: agent.connect,
        cwd: '/w/app',
        additionalDirectories: () => folders,
        settings: () => settings,
        sinks: { capture: (dir, msg) => void (dir === 'client->agent' && sent.push(msg)), persist: () => undefined },
      }),
    );
    await session.start();
    const newSession = sent.find(
      (m): m is { method: string; params: Record<string, unknown> } => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'session/new',
    );
    assert.deepEqual(newSession?.params['additionalDirectories'], ['/w/lib', '/w/docs']);
    assert.deepEqual(newSession?.params['systemPrompt'], { mode: 'append', content: [{ type: 'text', text: 'Be brief.' }] });
    session.prompt('/setup');
    await session.whenIdle();
    const answer = session
      .entries()
      .filter((e) => e.kind === 'agent_message')
      .map((e) => JSON.stringify(e))
      .join('');
    assert.match(answer, /\/w\/lib/);
    assert.match(answer, /\/w\/docs/);
    assert.match(answer, /Be brief\./);
    // A folder removed from the workspace is gone from the next session.
    folders = ['/w/docs'];
    await session.door.newSession();
    const second = sent.filter((m) => (m as { method?: unknown }).method === 'session/new').at(-1) as { params: Record<string, unknown> };
    assert.deepEqual(second.params['additionalDirectories'], ['/w/docs']);
    session.dispose();
  });
});
