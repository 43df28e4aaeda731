/**
 * Which URL-mode elicitation URLs may be opened: `https:` anywhere, `http:` only on this machine's
 * loopback (a local sign-in callback). Anything else (`file:`, `javascript:`, `http:` to another host,
 * credentials in the URL) is refused with a reason. The user sees the origin, never agent-formatted text.
 */
export type UrlVerdict = { readonly ok: true; readonly url: string; readonly origin: string } | { readonly ok: false; readonly reason: string; readonly origin: string | null };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkElicitationUrl(raw: string): UrlVerdict {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'it is not a valid URL', origin: null };
  }
  const origin = u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : `${u.protocol}…`;
  if (u.username !== '' || u.password !== '') return { ok: false, reason: 'it carries a user name or password', origin };
  if (u.protocol === 'https:') return { ok: true, url: u.href, origin };
  if (u.protocol === 'http:' && (LOOPBACK.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/u.test(u.hostname))) return { ok: true, url: u.href, origin };
  if (u.protocol === 'http:') return { ok: false, reason: 'plain http is allowed only on this machine (loopback)', origin };
  return { ok: false, reason: `the ${u.protocol} scheme is not opened (only https:, and http: on loopback)`, origin };
}
