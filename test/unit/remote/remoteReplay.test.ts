// A recorded real agent reached by URL: claude-next's recorded turn (two permission requests, thoughts,
// tool calls, updates before and after the responses) played back by the loopback server built on the SDK's
// server side, read by the same ChatController a stdio agent gets. The panel's entries must be those the
// recording itself reduces to: what the network carried arrived once, whole and in order.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChatController } from '../../../src/node/chat/chatController';
import { connectAgent } from '../../../src/node/acp/connectAgent';
import { MessageStore, textOf } from '../../../src/common/store';
import type { AgentConfig } from '../../../src/common/config/settings';
import { chatOptions } from '../session/harness';
import { startRemoteAgentServer } from '../helpers/remoteAgentServer';
import { parseTranscript, replayAgent } from '../helpers/replayAgent';
import { until } from '../../helpers/until.mjs';

const text = readFileSync(path.join(__dirname, '../../fixtures/transcripts/claude-next.jsonl'), 'utf8');

/** What a store shows for a list of entries: kind and text (a tool call: its id and status). */
function shown(entries: ReturnType<ChatController['entries']>): string[] {
  return entries.map((e) =>
    e.kind === 'tool_call'
      ? `tool_call ${e.toolCallId} ${e.status}`
      : e.kind === 'user_message' || e.kind === 'agent_message' || e.kind === 'agent_thought'
        ? `${e.kind} ${textOf(e.content)}`
        : e.kind,
  );
}

describe('a recorded real agent over WebSocket', async () => {
  const server = await startRemoteAgentServer({ agent: replayAgent(parseTranscript(text)) });
  after(() => server.stop());

  it('claude-next: the turn reaches the panel exactly as the recording reduces', async () => {
    const recorded = new MessageStore();
    text.split('\n').forEach((l, i) => l.trim() && recorded.ingestLine(l, i + 1));
    const want = recorded.sessions()[0]?.entries ?? [];
    const agent: AgentConfig = { id: 'far', name: 'Recorded', command: '', args: [], env: {}, url: server.wsUrl() };
    const asked: string[] = [];
    const chat = new ChatController(
      chatOptions({
        agent,
        connect: connectAgent(async () => ({})),
        handlers: () => ({
          requestPermission: async (p) => {
            asked.push(p.toolCall.toolCallId);
            return { outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === 'allow_once')?.optionId ?? '' } };
          },
        }),
      }),
    );
    await chat.start();
    assert.equal(chat.turnState, 'idle', chat.panelState().message ?? '');
    const prompt = want.find((e) => e.kind === 'user_message');
    assert.ok(prompt?.kind === 'user_message', 'the recording has a prompt');
    chat.prompt(textOf(prompt.content));
    // The recording's last message is the turn's last update: wait for every entry it reduces to.
    // (A timeout is not the failure: the comparison below says what differs.)
    await until(() => chat.turnState === 'idle' && shown(chat.entries()).join('\n') === shown(want).join('\n'), 'the recorded turn', 20_000).catch(() => undefined);
    assert.deepEqual(shown(chat.entries()), shown(want));
    assert.equal(asked.length, 2, 'both recorded permission requests reached the client');
    assert.ok(want.some((e) => e.kind === 'agent_thought') && want.some((e) => e.kind === 'tool_call'), 'the recording has thoughts and tool calls');
    chat.dispose();
  });
});
