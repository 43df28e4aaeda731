/**
 * Where the agent list comes from: the registry the user names (an https URL or a local file), fetched on
 * demand and cached in the extension's global storage with its fetch time, or, when that cannot be had,
 * the bundled catalog. Every failure is a reason shown to the user, never an exception: the picker always
 * has a list to show.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { parseCatalog, type Catalog } from '../../common/agents/registry';
import { errorText } from '../../common/util/errors';
import { fetchFailureText } from '../../common/agents/agentChoice';

/** The public ACP agent registry, as its CDN publishes it. */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
/** A cached registry younger than this is used without asking the network. */
export const REGISTRY_TTL_MS = 6 * 60 * 60 * 1000;
/** The registry is a list of some dozens of agents; anything far bigger is not one. */
const MAX_REGISTRY_BYTES = 8 * 1024 * 1024;

export type CatalogOrigin =
  | { readonly kind: 'live'; readonly source: string; readonly fetchedAt: number }
  | { readonly kind: 'cached'; readonly source: string; readonly fetchedAt: number; readonly reason?: string }
  | { readonly kind: 'file'; readonly source: string }
  | { readonly kind: 'offline'; readonly reason: string };

export interface LoadedCatalog {
  readonly catalog: Catalog;
  readonly origin: CatalogOrigin;
}

export interface RegistrySourceOptions {
  /** The setting: an http(s) URL, a local file path, or empty for the bundled list only. */
  readonly source: string;
  /** The cache file in global storage. */
  readonly cacheFile: string;
  /** The bundled catalog, in the registry's format. */
  readonly bundled: unknown;
  /** VS Code's proxy-aware fetch in the extension host; any fetch in tests. */
  readonly fetch: typeof fetch;
  readonly now: () => number;
  /** Refetch even when the cache is fresh (the picker's Refresh). */
  readonly force?: boolean;
  readonly ttlMs?: number;
  readonly signal?: AbortSignal;
}

const zCache = z.object({ source: z.string(), fetchedAt: z.number(), registry: z.unknown() });

export async function loadCatalog(o: RegistrySourceOptions): Promise<LoadedCatalog> {
  const offline = (reason: string): LoadedCatalog => ({ catalog: parseCatalog(o.bundled, { builtIn: true }), origin: { kind: 'offline', reason } });
  const source = o.source.trim();
  if (source === '') return offline('no registry is set (acpChat.agentRegistry)');
  if (!/^https?:\/\//i.test(source)) {
    try {
      return { catalog: parseCatalog(JSON.parse(await readFile(source, 'utf8'))), origin: { kind: 'file', source } };
    } catch (e) {
      return offline(`the registry file ${source} could not be read: ${errorText(e)}`);
    }
  }

  const cached = await readCache(o.cacheFile, source);
  const ttl = o.ttlMs ?? REGISTRY_TTL_MS;
  if (cached && !o.force && o.now() - cached.fetchedAt < ttl) return { catalog: cached.catalog, origin: { kind: 'cached', source, fetchedAt: cached.fetchedAt } };
  try {
    const raw = await fetchJson(o.fetch, source, o.signal);
    const catalog = parseCatalog(raw);
    const fetchedAt = o.now();
    // A cache that cannot be written costs the next start a fetch, not this list.
    await writeCache(o.cacheFile, { source, fetchedAt, registry: raw }).catch(() => undefined);
    return { catalog, origin: { kind: 'live', source, fetchedAt } };
  } catch (e) {
    const reason = `${hostOf(source)} could not be fetched: ${fetchFailureText(e)}`;
    // A stale copy of the real registry is better than the bundled six.
    if (cached) return { catalog: cached.catalog, origin: { kind: 'cached', source, fetchedAt: cached.fetchedAt, reason } };
    return offline(reason);
  }
}

async function fetchJson(fetchFn: typeof fetch, url: string, signal: AbortSignal | undefined): Promise<unknown> {
  const res = await fetchFn(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  if (!res.ok) throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > MAX_REGISTRY_BYTES) throw new Error(`${length} bytes is too large for a registry`);
  const text = await res.text();
  if (text.length > MAX_REGISTRY_BYTES) throw new Error(`${text.length} characters is too large for a registry`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${errorText(e)})`);
  }
}

/** The cache for this source, or null when there is none, it is for another source, or it is unreadable. */
async function readCache(file: string, source: string): Promise<{ catalog: Catalog; fetchedAt: number } | null> {
  try {
    const c = zCache.parse(JSON.parse(await readFile(file, 'utf8')));
    return c.source === source ? { catalog: parseCatalog(c.registry), fetchedAt: c.fetchedAt } : null;
  } catch {
    return null;
  }
}

/** Written beside and renamed into place, so a reader never sees half a file. */
async function writeCache(file: string, content: z.infer<typeof zCache>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(content));
  await rename(tmp, file);
}

/** One line for the picker's title: where the list comes from and, when it is not live, why. */
export function originText(origin: CatalogOrigin, now: number): string {
  switch (origin.kind) {
    case 'live':
      return `registry ${new URL(origin.source).host}, fetched just now`;
    case 'cached':
      return `registry ${new URL(origin.source).host}, fetched ${age(now - origin.fetchedAt)} ago${origin.reason ? ` (refresh failed: ${origin.reason})` : ''}`;
    case 'file':
      return `registry file ${origin.source}`;
    case 'offline':
      return `offline list (built in): ${origin.reason}`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function age(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}
