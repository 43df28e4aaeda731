// MCP servers the user sees and chooses: VS Code's user mcp.json parsed tolerantly (names as data), the
// configured list (settings first), a chat's off-list, what an agent takes, the quick pick's rows, the
// chat record keeping the choice, and the session params built from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseVSCodeMcpJson, stripJsonc } from '../../../src/common/mcp/vscodeMcpJson';
import { chosenMcpServers, configuredMcpServers, mcpOffAfterPick, mcpPickRows, transportOf } from '../../../src/common/mcp/mcpServers';
import { parseChatIndex } from '../../../src/common/chats/chatIndex';
import { sessionParams } from '../../../src/node/chat/sessionParams';
import { parseSettings } from '../../../src/common/config/settings';
import type { McpServer } from '../../../src/common/protocol/requests';

const collect = () => {
  const warnings: string[] = [];
  return { warnings, warn: (m: string) => void warnings.push(m) };
};

test('VS Code mcp.json: stdio and http/sse servers become ACP McpServers (env and headers as name/value pairs), JSONC accepted', () => {
  const { warnings, warn } = collect();
  const text = `{
    // my servers
    "servers": {
      "files": { "type": "stdio", "command": "/bin/fs-mcp", "args": ["--root", "/x"], "env": { "TOKEN": "a//b", "MODE": "ro", }, },
      "web": { "type": "http", "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer /* not a comment */ t" } },
      /* an sse one */ "events": { "type": "sse", "url": "https://mcp.example/sse" },
      "bare": { "command": "/bin/bare" },
    },
  }`;
  const servers = parseVSCodeMcpJson(text, warn);
  assert.deepEqual(warnings, []);
  assert.deepEqual(servers, [
    {
      name: 'files',
      command: '/bin/fs-mcp',
      args: ['--root', '/x'],
      env: [
        { name: 'TOKEN', value: 'a//b' },
        { name: 'MODE', value: 'ro' },
      ],
    },
    { type: 'http', name: 'web', url: 'https://mcp.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer /* not a comment */ t' }] },
    { type: 'sse', name: 'events', url: 'https://mcp.example/sse', headers: [] },
    { name: 'bare', command: '/bin/bare', args: [], env: [] },
  ]);
  assert.deepEqual(servers.map(transportOf), ['stdio', 'http', 'sse', 'stdio']);
});

test('VS Code mcp.json is untrusted: bad entries are skipped with a reason, "__proto__" is a name like any other, nothing is polluted', () => {
  const { warnings, warn } = collect();
  // Written as text: an object literal's __proto__ would set a prototype, JSON.parse makes it an own key.
  const text = `{ "servers": {
    "__proto__": { "type": "stdio", "command": "/bin/proto", "args": [], "env": { "__proto__": "x", "constructor": "y" } },
    "constructor": { "type": "http", "url": "https://c.example" },
    "noCommand": { "type": "stdio", "args": [] },
    "badEnv": { "command": "/bin/e", "env": { "A": 1 } },
    "needsInput": { "type": "http", "url": "https://x", "headers": { "Authorization": "\${input:token}" } },
    "wrongType": { "type": "websocket", "url": "ws://x" },
    "list": [1, 2],
    "": { "command": "/bin/empty" }
  } }`;
  const servers = parseVSCodeMcpJson(text, warn);
  assert.deepEqual(
    servers.map((s) => s.name),
    ['__proto__', 'constructor'],
  );
  assert.deepEqual(servers[0], {
    name: '__proto__',
    command: '/bin/proto',
    args: [],
    env: [
      { name: '__proto__', value: 'x' },
      { name: 'constructor', value: 'y' },
    ],
  });
  assert.equal(Object.getPrototypeOf(servers[0]), Object.prototype);
  assert.equal(({} as Record<string, unknown>).command, undefined);
  for (const name of ['noCommand', 'badEnv', 'needsInput', 'wrongType', 'list'])
    assert.ok(
      warnings.some((w) => w.includes(JSON.stringify(name)) && w.includes('skipped')),
      `${name}: ${warnings.join(' | ')}`,
    );
  assert.ok(
    warnings.some((w) => w.includes('variables')),
    'a ${input:} server says why',
  );
  assert.ok(warnings.some((w) => w.includes('no name')));
});

test('VS Code mcp.json: not JSON, or no servers object, is reported and gives nothing; no "servers" key is silent', () => {
  const a = collect();
  assert.deepEqual(parseVSCodeMcpJson('{ "servers": ', a.warn), []);
  assert.match(a.warnings[0] ?? '', /not valid JSON/);
  const b = collect();
  assert.deepEqual(parseVSCodeMcpJson('{ "servers": [1] }', b.warn), []);
  assert.match(b.warnings[0] ?? '', /no readable "servers"/);
  const c = collect();
  assert.deepEqual(parseVSCodeMcpJson('{ "inputs": [] }', c.warn), []);
  assert.deepEqual(c.warnings, []);
  assert.equal(stripJsonc('{"a": "x,}", "b": [1, 2, ], }'), '{"a": "x,}", "b": [1, 2 ] }');
  assert.equal(stripJsonc('{"u": "http://x" // c\n}'), '{"u": "http://x" \n}');
});

const stdio = (name: string): McpServer => ({ name, command: `/bin/${name}`, args: [], env: [] });
const http = (name: string): McpServer => ({ type: 'http', name, url: `https://${name}.example`, headers: [] });
const sse = (name: string): McpServer => ({ type: 'sse', name, url: `https://${name}.example`, headers: [] });

test('configured servers: acpChat.mcpServers first; a VS Code server of the same name and invalid settings entries are left out, said why', () => {
  const { warnings, warn } = collect();
  const all = configuredMcpServers([stdio('a'), { name: 'broken' }, http('a')], [http('a'), sse('b')], warn);
  assert.deepEqual(
    all.map((c) => [c.server.name, c.source, transportOf(c.server)]),
    [
      ['a', 'settings', 'stdio'],
      ['b', 'vscode', 'sse'],
    ],
  );
  assert.equal(warnings.length, 3);
  assert.match(warnings[0] ?? '', /mcpServers\[1\] is not a valid/);
  assert.match(warnings[1] ?? '', /already configured/);
  assert.match(warnings[2] ?? '', /setting's is used/);
});

test("a chat's choice and the agent's mcpCapabilities decide what is sent; turned-off servers are not reported as skipped", () => {
  const all = configuredMcpServers([stdio('a'), http('web'), sse('ev')], [stdio('__proto__')], () => undefined);
  const caps = { mcpCapabilities: { http: true, sse: false } };
  assert.deepEqual(chosenMcpServers(all, new Set(), caps), { sent: [stdio('a'), http('web'), stdio('__proto__')], skipped: ['ev'] });
  assert.deepEqual(chosenMcpServers(all, new Set(['a', 'ev', '__proto__']), caps), { sent: [http('web')], skipped: [] });
  assert.deepEqual(chosenMcpServers(all, new Set(['a']), undefined).skipped, ['web', 'ev']);
});

test('quick pick rows say each transport, source and whether the agent takes it; the off-list after a pick keeps choices of servers no longer configured', () => {
  const all = configuredMcpServers([stdio('a'), sse('ev')], [http('web')], () => undefined);
  const rows = mcpPickRows(all, new Set(['web']), { mcpCapabilities: { http: true } }, 'Codex');
  assert.deepEqual(
    rows.map((r) => [r.name, r.picked]),
    [
      ['a', true],
      ['ev', true],
      ['web', false],
    ],
  );
  assert.match(rows[0]?.detail ?? '', /^stdio · acpChat\.mcpServers · Codex can use it$/);
  assert.match(rows[1]?.detail ?? '', /sse .* Codex cannot take sse: not sent/);
  assert.match(rows[2]?.detail ?? '', /http · VS Code's mcp\.json · Codex can use it/);
  assert.match(mcpPickRows(all, new Set(), undefined, 'Codex')[0]?.detail ?? '', /has not said yet/);
  assert.deepEqual(mcpOffAfterPick(['gone', 'web'], all, ['web']), ['gone', 'a', 'ev']);
  assert.deepEqual(mcpOffAfterPick([], all, ['a', 'ev', 'web']), []);
});

test('the chat record keeps the off-list, tolerant on read (a bad value is dropped, the record kept)', () => {
  const rec = (mcpOff: unknown) => ({ id: 'chat-1-a', agentId: 'demo', title: null, sessionId: null, createdAt: 1, updatedAt: 1, mcpOff });
  const { chats } = parseChatIndex({ version: 1, chats: [rec(['__proto__', 'web']), rec('nope')], focused: [] }, () => undefined);
  assert.deepEqual(chats[0]?.mcpOff, ['__proto__', 'web']);
  const other = parseChatIndex({ version: 1, chats: [{ ...rec(5), id: 'chat-2-b' }], focused: [] }, () => undefined);
  assert.equal(other.chats.length, 1);
  assert.equal(other.chats[0]?.mcpOff, undefined);
});

test("session params: VS Code's servers join the settings', the chat's off-list is left out, servers the agent cannot take are named", () => {
  const settings = { ...parseSettings(() => undefined).settings, mcpServers: [stdio('a'), http('web')] };
  const skipped: string[][] = [];
  const p = sessionParams({
    cwd: '/w',
    settings,
    additionalDirectories: [],
    caps: { mcpCapabilities: { sse: false } },
    warn: () => undefined,
    skipped: (n) => void skipped.push([...n]),
    mcp: { vscode: [stdio('v'), sse('ev')], off: ['a'] },
  });
  assert.deepEqual(p.mcpServers, [stdio('v')]);
  assert.deepEqual(skipped, [['web', 'ev']]);
  assert.equal(parseSettings(() => undefined).settings.useVSCodeMcpServers, 'ask');
  assert.equal(parseSettings((k) => (k === 'useVSCodeMcpServers' ? 'yes' : undefined)).settings.useVSCodeMcpServers, 'yes');
});
