// Entries and panel states for the browser tests, shaped like src/common/store/model.ts (plain JSON). Each
// entry a builder makes is checked against the store's own saved-entry schema (`checked`), so a field added
// to or removed from the entry fails here instead of leaving these builders a stale twin.
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

const { zPersistedEntry } = await tsImport('../../src/common/store/entrySchema.ts', import.meta.url);

/**
 * `e` as the store would hold it: read back by the shipped schema, it must come out unchanged (a missing
 * field would be given its default, an unknown one dropped, a wrong type refused).
 */
function checked(e) {
  const r = zPersistedEntry.safeParse(e);
  assert.ok(r.success, `fixture entry ${e?.key} is not a store entry (src/common/store/entrySchema.ts): ${r.error?.message}`);
  assert.deepEqual(r.data, e, `fixture entry ${e.key} differs from the store's entry shape (src/common/store/entrySchema.ts): update test/browser/fixtures.mjs`);
  return e;
}

export const PROTOCOL = 3;

// The empty panel is TypeScript; bundled here in memory so the fixtures never keep a copy of its fields.
const emptyPanelModule = await build({
  entryPoints: [fileURLToPath(new URL('../../src/common/webview/emptyPanel.ts', import.meta.url))],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'silent',
});
const { EMPTY_PANEL } = await import(`data:text/javascript;base64,${Buffer.from(emptyPanelModule.outputFiles[0].text).toString('base64')}`);

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
let line = 1;
function stats(ms = 0, chunks = 1) {
  const l = line++;
  return { chunks, upserts: 0, bytes: 10, firstSeen: T0, lastSeen: T0 + ms, lines: [[l, l]] };
}

export function message(kind, key, text, { ms = 0, extra = [] } = {}) {
  return checked({ kind, key, messageId: `m-${key}`, content: [{ type: 'text', text }, ...extra], meta: null, provenance: 'live', stats: stats(ms) });
}

export function toolCall(key, fields) {
  return checked({
    kind: 'tool_call',
    key,
    toolCallId: `tc-${key}`,
    title: 'Tool',
    name: null,
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
    rawInput: null,
    rawOutput: null,
    meta: null,
    parentKey: null,
    statusHistory: [],
    provenance: 'live',
    stats: stats(),
    ...fields,
  });
}

/** The panel a test starts from: the shipped empty panel (one definition, in src/common), as a live chat. */
export function panel(fields = {}) {
  return { ...EMPTY_PANEL, agentName: 'Demo Agent', sessionId: 's-1', turn: 'idle', canFork: true, ...fields };
}

const AGENT_MARKDOWN = `Here is the fix for the off-by-one in \`parseRange\`:

\`\`\`ts
export function parseRange(s: string): [number, number] {
  const [a, b] = s.split('-').map(Number);
  return [a, b + 1]; // end is exclusive
}
\`\`\`

| Case | Before | After |
| --- | --- | --- |
| \`1-3\` | \`[1, 3]\` | \`[1, 4]\` |
| \`5-5\` | \`[5, 5]\` | \`[5, 6]\` |

See [the range docs](https://example.com/ranges) for details.`;

const OLD_SRC = `import { z } from 'zod';

export function parseRange(s: string): [number, number] {
  const [a, b] = s.split('-').map(Number);
  return [a, b];
}

export const other = 1;`;
const NEW_SRC = `import { z } from 'zod';

export function parseRange(s: string): [number, number] {
  const [a, b] = s.split('-').map(Number);
  return [a, b + 1]; // end is exclusive
}

export const other = 1;`;

/** A conversation with every entry type, a diff, a terminal and a pending permission. */
export function showcase() {
  const entries = [
    message('user_message', 'u1', 'Fix the off-by-one in parseRange and run the tests.', {
      extra: [{ type: 'resource_link', uri: 'file:///home/dev/app/src/range.ts', name: 'range.ts' }],
    }),
    message('agent_thought', 't1', 'The end index is inclusive in the input but exclusive in callers. **Check** the tests first.', { ms: 4200 }),
    toolCall('tc1', {
      title: 'Read src/range.ts',
      toolKind: 'read',
      status: 'completed',
      locations: [{ path: '/home/dev/app/src/range.ts', line: 3 }],
      rawInput: { path: '/home/dev/app/src/range.ts' },
    }),
    toolCall('tc2', {
      title: 'Edit src/range.ts',
      toolKind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/home/dev/app/src/range.ts', oldText: OLD_SRC, newText: NEW_SRC }],
      locations: [{ path: '/home/dev/app/src/range.ts', line: 5 }],
    }),
    message('agent_message', 'a1', AGENT_MARKDOWN),
    toolCall('tc3', {
      title: 'Run npm test',
      toolKind: 'execute',
      status: 'pending',
      rawInput: { command: 'npm test -- range' },
      content: [{ type: 'terminal', terminalId: 'term-1' }],
      meta: { terminal_output: { terminal_id: 'term-1', data: '> app@1.0.0 test\n> node --test range\n' } },
    }),
    toolCall('tc4', {
      title: 'Fetch the changelog',
      toolKind: 'fetch',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'HTTP 503 from the server' } }],
    }),
  ];
  const p = panel({
    turn: 'busy',
    title: 'Fix parseRange',
    plan: [
      { content: 'Read the range parser', priority: 'medium', status: 'completed' },
      { content: 'Fix the exclusive end', priority: 'high', status: 'in_progress' },
      { content: 'Run the tests', priority: 'medium', status: 'pending' },
    ],
    currentModeId: 'code',
    availableModes: [
      { id: 'ask', name: 'Ask' },
      { id: 'code', name: 'Code' },
    ],
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'fast',
        options: [
          { value: 'fast', name: 'Fast model' },
          { value: 'smart', name: 'Smart model' },
        ],
      },
    ],
    availableCommands: [
      { name: 'help', description: 'Show what the agent can do' },
      { name: 'history', description: 'Show recent sessions' },
      { name: 'test', description: 'Run the tests', input: { hint: 'test name' } },
    ],
    usage: { used: 48_200, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
    permissions: [
      {
        requestId: 'perm-1',
        toolCallKey: 'tc3',
        toolCallId: 'tc-tc3',
        title: 'Run npm test -- range?',
        options: [
          { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ],
  });
  return { entries, panel: p };
}

/** A turn's Changes summary (a ChangeSetView) after the entry `afterKey`: pending, new, in conflict, blocked. */
export function changeSet(id, afterKey, files) {
  const file = (path, fields = {}) => ({ path, state: 'pending', source: 'write', created: false, added: 3, removed: 1, note: null, canUndo: true, canDiff: true, ...fields });
  return {
    id,
    afterKey,
    files: files ?? [
      file('src/range.ts'),
      file('src/range.test.ts', { created: true, added: 12, removed: 0 }),
      file('README.md', { state: 'conflict', note: "README.md changed after Demo Agent's edit, so Undo left it alone (it would overwrite those changes)." }),
      file('/etc/hosts', { source: 'diff', canUndo: false, note: '/etc/hosts is outside the workspace; ACP Chat does not undo edits there that the agent made itself.' }),
    ],
  };
}

/** The host's first post: the whole transcript and panel state. */
export const snapshot = (entries, p = panel()) => ({ type: 'snapshot', protocol: PROTOCOL, entries, panel: p });
/** A later post: a few patch operations. */
export const patch = (...ops) => ({ type: 'patch', ops });
