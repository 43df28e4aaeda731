// The branch plan: fork at the message when the agent offers it and knows the message, else a new
// session carrying the transcript (embedded or linked); a plain fork is never the plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchPoint, carriedPrompt, CARRIED_META, CARRIED_MESSAGES_META, isCarriedBlock, planBranch } from '../../../src/common/rewind/branchPlan';
import { FORK_AT_MESSAGE, forkAtMessageOf, forkAtMessageParams, supportsForkAtMessage } from '../../../src/common/rewind/forkAtMessage';
import type { AgentCapabilities } from '../../../src/common/protocol/requests';
import type { Entry, MessageEntry, ToolCallEntry } from '../../../src/common/store/model';

const stats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };
const msg = (kind: MessageEntry['kind'], key: string, text: string, messageId: string | null = null): MessageEntry => ({
  kind,
  key,
  messageId,
  content: [{ type: 'text', text }],
  meta: null,
  provenance: 'live',
  stats,
});
const tool = (key: string, title: string): ToolCallEntry => ({
  kind: 'tool_call',
  key,
  toolCallId: key,
  title,
  name: null,
  toolKind: 'edit',
  status: 'completed',
  content: [],
  locations: [],
  rawInput: { path: '/secret' },
  rawOutput: 'OUTPUT',
  meta: null,
  parentKey: null,
  statusHistory: [],
  provenance: 'live',
  stats,
});

const chat: Entry[] = [
  msg('user_message', 'k0', 'first question', 'u0'),
  msg('agent_thought', 'k1', 'hmm'),
  tool('k2', 'Edit a.ts'),
  msg('agent_message', 'k3', 'first answer'),
  msg('user_message', 'k4', 'second question', 'u1'),
  msg('agent_message', 'k5', 'second answer'),
  msg('user_message', 'k6', 'no id'),
];

const forkAt: AgentCapabilities = { promptCapabilities: { embeddedContext: true }, sessionCapabilities: { fork: { [FORK_AT_MESSAGE.capability]: {} } } };
const plainFork: AgentCapabilities = { promptCapabilities: { embeddedContext: true }, sessionCapabilities: { fork: {} } };
const noEmbed: AgentCapabilities = { sessionCapabilities: { fork: {} } };

test('the fork-at-message names live in one place and round-trip through a request', () => {
  const params = { sessionId: 's', cwd: '/ws', ...forkAtMessageParams('u1') };
  assert.equal(forkAtMessageOf(params), 'u1');
  assert.equal(forkAtMessageOf({ sessionId: 's', cwd: '/ws' }), undefined);
  assert.equal(supportsForkAtMessage(forkAt), true);
  assert.equal(supportsForkAtMessage({ sessionCapabilities: { fork: { [FORK_AT_MESSAGE.capability]: true } } } as AgentCapabilities), true);
  assert.equal(supportsForkAtMessage(plainFork), false);
  assert.equal(supportsForkAtMessage({ sessionCapabilities: { fork: { [FORK_AT_MESSAGE.capability]: null } } } as AgentCapabilities), false);
  assert.equal(supportsForkAtMessage(undefined), false);
});

test('branch point: only a user message still in the chat', () => {
  assert.equal(branchPoint(chat, 'k4').ok, true);
  assert.match((branchPoint(chat, 'k3') as { reason: string }).reason, /Only your own messages/);
  assert.match((branchPoint(chat, 'gone') as { reason: string }).reason, /no longer/);
});

test('an agent that forks at a message is forked at it', () => {
  assert.deepEqual(planBranch(forkAt, chat, 4, 'Demo'), { kind: 'forkAtMessage', messageId: 'u1' });
});

test('a message the agent never named is carried, even by an agent that forks at messages', () => {
  const plan = planBranch(forkAt, chat, 6, 'Demo');
  assert.equal(plan.kind, 'newSession');
});

test('without fork at a message (a plain fork copies the answer too): a new session carrying the transcript before the message', () => {
  const plan = planBranch(plainFork, chat, 4, 'Demo');
  assert.ok(plan.kind === 'newSession' && plan.carried);
  assert.equal(plan.carry, 'embedded');
  const md = plan.carried.markdown;
  assert.match(md, /## User\n\nfirst question/);
  assert.match(md, /## Demo\n\nfirst answer/);
  assert.match(md, /Tool call \(not replayed\): Edit a\.ts — completed/);
  // Tool inputs and outputs, thoughts and everything from the message on stay behind.
  for (const absent of ['/secret', 'OUTPUT', 'hmm', 'second question', 'second answer']) assert.ok(!md.includes(absent), absent);
});

test('the first message has nothing to carry; an agent without embedded context gets a link', () => {
  const first = planBranch(plainFork, chat, 0, 'Demo');
  assert.deepEqual(first, { kind: 'newSession', carried: null, carry: 'embedded' });
  const linked = planBranch(noEmbed, chat, 4, 'Demo');
  assert.equal(linked.kind === 'newSession' && linked.carry, 'link');
});

test('the first prompt: the edited message, then a lead line and the transcript (resource or link, marked as carried)', () => {
  const edited = [{ type: 'text' as const, text: 'second question, better' }];
  const embedded = planBranch(plainFork, chat, 4, 'Demo');
  assert.equal(embedded.kind, 'newSession');
  if (embedded.kind !== 'newSession') return;
  const blocks = carriedPrompt(embedded, 'file:///store/t.md', edited);
  assert.deepEqual(
    blocks.map((b) => b.type),
    ['text', 'text', 'resource'],
  );
  assert.deepEqual(blocks.map(isCarriedBlock), [false, true, true]);
  assert.equal(blocks[0], edited[0], 'the user’s words come first');
  const res = blocks[2];
  assert.ok(res?.type === 'resource' && 'text' in res.resource);
  assert.equal(res.resource.mimeType, 'text/markdown');
  assert.equal(res.resource.text, embedded.carried?.markdown);
  const linked = planBranch(noEmbed, chat, 4, 'Demo');
  if (linked.kind !== 'newSession') return assert.fail('a new session');
  const link = carriedPrompt(linked, 'file:///store/t.md', edited)[2];
  assert.ok(link?.type === 'resource_link');
  assert.equal(link.uri, 'file:///store/t.md');
  assert.deepEqual(link._meta, { [CARRIED_META]: true, [CARRIED_MESSAGES_META]: linked.carried?.messages });
  assert.ok((linked.carried?.messages ?? 0) > 0, 'the messages it holds are counted');
  const none = planBranch(plainFork, chat, 0, 'Demo');
  if (none.kind !== 'newSession') return assert.fail('a new session');
  assert.deepEqual(carriedPrompt(none, 'file:///x', edited), edited);
});
