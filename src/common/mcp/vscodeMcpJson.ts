/**
 * VS Code's user-level MCP configuration (`<user data>/User/mcp.json`), read only when the user agreed
 * (`acpChat.useVSCodeMcpServers`), into ACP `McpServer`s. The file is untrusted input: parsed with zod,
 * tolerant (a bad entry is skipped with its reason, the others kept), its server names treated as data
 * (the object is walked with Object.entries of a JSON.parse result, which makes "__proto__" an own key, and
 * the names go into arrays). Format: `{ "servers": { name: { type: "stdio", command, args, env } |
 * { type: "http" | "sse", url, headers } } }`, JSON with comments. Values that use VS Code's variables
 * (`${input:…}`, `${env:…}`, `${workspaceFolder}`) cannot be resolved outside VS Code's own MCP support,
 * so such a server is skipped, said why, rather than sent with the literal text.
 */
import * as z from 'zod';
import type { McpServer } from '../protocol/requests';

// z.object (not loose): unknown keys, "__proto__" among them, are dropped rather than copied. Maps of
// names (servers, env, headers) are not given to z.record: their keys are walked here, as data.
const zStringMap = z.custom<object>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'),
  'expected an object of strings',
);
const zStdio = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: zStringMap.nullish(),
});
const zRemote = z.object({ type: z.enum(['http', 'sse']), url: z.string().min(1), headers: zStringMap.nullish() });
const isMap = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ K: V }` (checked: every value a string) as ACP's `[{ name, value }]`, own keys in file order. */
const pairs = (o: object | null | undefined) => Object.entries(o ?? {}).map(([name, value]) => ({ name, value: String(value) }));

/** Parses the file's text (JSON with comments and trailing commas); never throws. */
export function parseVSCodeMcpJson(text: string, warn: (message: string) => void): McpServer[] {
  let raw: unknown;
  try {
    raw = JSON.parse(stripJsonc(text));
  } catch (e) {
    warn(`VS Code's mcp.json is not valid JSON and was not used: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  const servers: unknown = isMap(raw) ? Object.getOwnPropertyDescriptor(raw, 'servers')?.value : undefined;
  if (servers === undefined) return [];
  if (!isMap(servers)) {
    warn(`VS Code's mcp.json has no readable "servers" object and was not used`);
    return [];
  }
  const out: McpServer[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const skip = (why: string) => warn(`VS Code's mcp.json server ${JSON.stringify(name)} was skipped: ${why}`);
    if (name.trim() === '') {
      skip('it has no name');
      continue;
    }
    if (JSON.stringify(entry).includes('${')) {
      skip('it uses VS Code variables (${…}), which only VS Code can fill in');
      continue;
    }
    const remote = zRemote.safeParse(entry);
    if (remote.success) {
      out.push({ type: remote.data.type, name, url: remote.data.url, headers: pairs(remote.data.headers) });
      continue;
    }
    const stdio = zStdio.safeParse(entry);
    if (stdio.success) out.push({ name, command: stdio.data.command, args: stdio.data.args ?? [], env: pairs(stdio.data.env) });
    else skip(`neither a stdio server (command, args, env) nor an http / sse one (url, headers): ${stdio.error.issues[0]?.message ?? 'bad format'}`);
  }
  return out;
}

/** JSON with comments (// and /* *\/) and trailing commas as plain JSON; strings are left as they are. */
export function stripJsonc(text: string): string {
  const noComments = outsideStrings(text, (t, i) => {
    if (t[i] === '/' && t[i + 1] === '/') {
      const end = t.indexOf('\n', i);
      return { skip: (end < 0 ? t.length : end) - i, put: '' };
    }
    if (t[i] === '/' && t[i + 1] === '*') {
      const end = t.indexOf('*/', i + 2);
      return { skip: (end < 0 ? t.length : end + 2) - i, put: ' ' };
    }
    return null;
  });
  const closes = /\s*[}\]]/y;
  return outsideStrings(noComments, (t, i) => {
    if (t[i] !== ',') return null;
    closes.lastIndex = i + 1;
    return closes.test(t) ? { skip: 1, put: '' } : null;
  });
}

/** Copies `text`, letting `edit` replace what starts at an index outside a JSON string. */
function outsideStrings(text: string, edit: (text: string, i: number) => { skip: number; put: string } | null): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const e = edit(text, i);
    if (e) {
      out += e.put;
      i += e.skip;
    } else out += text[i++];
  }
  return out;
}
