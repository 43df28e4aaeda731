/**
 * The rules for an agent reached by URL (`acpChat.agents[].url`, `cli.js run|check --url`), judged before
 * anything connects: WebSocket (`wss://`) or Streamable HTTP (`https://`); the plain `ws://` and `http://`
 * only to this machine (loopback), since the SDK's clients would send prompts, files and tokens in clear
 * text to any host. Credentials never ride in the URL (they would land in settings, logs and captures):
 * they come from SecretStorage as headers.
 */

type RemoteKind = 'websocket' | 'http';

export interface AgentUrl {
  readonly href: string;
  readonly kind: RemoteKind;
  /** `wss://host:port`: what the chat header and the picker show (never a path, query or credentials). */
  readonly origin: string;
  readonly loopback: boolean;
}

export type AgentUrlCheck = { readonly ok: true; readonly url: AgentUrl } | { readonly ok: false; readonly reason: string };

const KINDS: Readonly<Record<string, { kind: RemoteKind; secure: boolean }>> = {
  'wss:': { kind: 'websocket', secure: true },
  'ws:': { kind: 'websocket', secure: false },
  'https:': { kind: 'http', secure: true },
  'http:': { kind: 'http', secure: false },
};

/** localhost, 127.0.0.0/8 and ::1: the only hosts a plain ws:// or http:// URL may name. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function checkAgentUrl(raw: string): AgentUrlCheck {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: `"${shown(raw)}" is not a URL` };
  }
  const k = KINDS[u.protocol];
  if (!k) return { ok: false, reason: `${u.protocol}// is not an agent transport: use wss:// (WebSocket) or https:// (Streamable HTTP)` };
  if (u.username !== '' || u.password !== '')
    return { ok: false, reason: 'the URL carries credentials: remove them and name the header in "secretHeaders" (its value is kept in VS Code\'s secret storage)' };
  const loopback = isLoopbackHost(u.hostname);
  if (!k.secure && !loopback) {
    const secure = u.protocol === 'ws:' ? 'wss://' : 'https://';
    return { ok: false, reason: `refused ${u.protocol}//${u.host}: an unencrypted connection is only allowed to this machine (localhost, 127.0.0.1, ::1); use ${secure}${u.host}` };
  }
  return { ok: true, url: { href: u.href, kind: k.kind, origin: `${u.protocol}//${u.host}`, loopback } };
}

/** The origin to show for an agent, or null for a local (stdio) one; a bad URL shows as itself, cut short. */
export function agentOrigin(agent: { readonly url?: string | undefined }): string | null {
  if (agent.url === undefined) return null;
  const c = checkAgentUrl(agent.url);
  return c.ok ? c.url.origin : shown(agent.url);
}

/** A URL as text for a message: no query (it may hold a token) and at most 80 characters. */
function shown(raw: string): string {
  const cut = raw.split(/[?#]/)[0] ?? '';
  return cut.length > 80 ? `${cut.slice(0, 79)}…` : cut;
}
