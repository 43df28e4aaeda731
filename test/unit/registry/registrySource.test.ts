/** The agent list's source: the registry over HTTP, its cache in global storage, and the offline list. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import bundled from '../../../src/common/agents/catalog.json';
import { loadCatalog, originText, REGISTRY_TTL_MS, type RegistrySourceOptions } from '../../../src/node/registry/registrySource';
import { fixtureServer, json, type FixtureServer } from './fixtures';

const registry = {
  version: '1.0.0',
  somethingNew: { the: 'registry may grow' },
  agents: [
    {
      id: 'alpha',
      name: 'Alpha',
      version: '1.2.3',
      description: 'An npx agent',
      icon: 'https://cdn.example/alpha.svg',
      newField: 1,
      distribution: { npx: { package: 'alpha-acp@1.2.3' } },
    },
    { id: 'broken', name: 'Broken', version: '1', description: 'no distribution', distribution: {} },
    'not an agent',
    {
      id: 'beta',
      name: 'Beta',
      version: '0.1.0',
      description: 'A binary agent',
      distribution: { binary: { 'linux-x86_64': { archive: 'https://example.invalid/beta.tar.gz', cmd: './beta', sha256: 'a'.repeat(64) } } },
    },
  ],
};

describe('registry source', () => {
  let server: FixtureServer;
  let dir: string;
  let clock = 1_000_000;
  const opts = (over: Partial<RegistrySourceOptions> = {}): RegistrySourceOptions => ({
    source: `${server.base}/registry.json`,
    cacheFile: path.join(dir, 'cache', 'registry.json'),
    bundled,
    fetch,
    now: () => clock,
    ...over,
  });

  before(async () => {
    server = await fixtureServer();
    server.route('/registry.json', json(registry));
    server.route('/broken.json', (_req, res) => void res.writeHead(500, 'Internal Server Error').end());
    server.route('/not-json', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>'));
    server.route('/wrong-shape', json({ agents: 'none' }));
    dir = mkdtempSync(path.join(tmpdir(), 'acp-registry-src-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches the registry, skips bad agents with a reason, and caches it with its fetch time', async () => {
    const r = await loadCatalog(opts());
    assert.deepEqual(r.origin, { kind: 'live', source: `${server.base}/registry.json`, fetchedAt: clock });
    assert.deepEqual(
      r.catalog.agents.map((a) => a.id),
      ['alpha', 'beta'],
    );
    assert.equal(r.catalog.problems.length, 2);
    assert.match(r.catalog.problems[0]!, /\(broken\) skipped/);
    assert.equal(r.catalog.agents[1]!.distribution.binary?.['linux-x86_64']?.sha256, 'a'.repeat(64));
    const cache = JSON.parse(readFileSync(path.join(dir, 'cache', 'registry.json'), 'utf8')) as { fetchedAt: number; source: string };
    assert.equal(cache.fetchedAt, clock);
    assert.equal(cache.source, `${server.base}/registry.json`);
  });

  it('uses the cache within its TTL, refetches on Refresh and after the TTL', async () => {
    const hits = () => server.hits.get('/registry.json') ?? 0;
    const before = hits();
    const fetchedAt = clock;
    clock += 60_000;
    const cached = await loadCatalog(opts());
    assert.deepEqual(cached.origin, { kind: 'cached', source: `${server.base}/registry.json`, fetchedAt });
    assert.equal(hits(), before, 'no request while the cache is fresh');
    assert.match(originText(cached.origin, clock), /fetched 1 min ago/);

    const refreshed = await loadCatalog(opts({ force: true }));
    assert.equal(refreshed.origin.kind, 'live');
    assert.equal(hits(), before + 1);

    clock += REGISTRY_TTL_MS + 1;
    assert.equal((await loadCatalog(opts())).origin.kind, 'live');
    assert.equal(hits(), before + 2);
  });

  it('an unreachable registry falls back to the cached copy, saying why', async () => {
    clock += REGISTRY_TTL_MS + 1;
    const r = await loadCatalog(opts({ fetch: () => Promise.reject(new TypeError('fetch failed')) }));
    assert.equal(r.origin.kind, 'cached');
    assert.deepEqual(
      r.catalog.agents.map((a) => a.id),
      ['alpha', 'beta'],
    );
    assert.match(originText(r.origin, clock), /refresh failed: .*no network connection, or the server did not answer/, 'in words, not Node\'s "fetch failed"');
  });

  it('an unreachable registry without a cache gives the offline list and the reason', async () => {
    const closed = await fixtureServer();
    const url = `${closed.base}/registry.json`;
    await closed.close();
    const r = await loadCatalog(opts({ source: url, cacheFile: path.join(dir, 'none', 'registry.json') }));
    assert.equal(r.origin.kind, 'offline');
    assert.deepEqual(
      r.catalog.agents.map((a) => a.id),
      (bundled.agents as { id: string }[]).map((a) => a.id),
    );
    assert.match(
      originText(r.origin, clock),
      new RegExp(`^offline list \\(built in\\): ${new URL(url).host.replace(/[.]/g, '\\.')} could not be fetched: the server refused the connection$`),
    );
  });

  it('an HTTP error, a page that is not JSON, or a file that is no registry: the offline list with the reason', async () => {
    const reason = async (p: string) => {
      const r = await loadCatalog(opts({ source: `${server.base}${p}`, cacheFile: path.join(dir, 'x', `${p.slice(1)}.json`) }));
      assert.equal(r.origin.kind, 'offline');
      return r.origin.kind === 'offline' ? r.origin.reason : '';
    };
    assert.match(await reason('/broken.json'), /HTTP 500 Internal Server Error/);
    assert.match(await reason('/not-json'), /not JSON/);
    assert.match(await reason('/wrong-shape'), /Not an ACP agent registry/);
  });

  it('a cache of another registry is not used for this one', async () => {
    const cacheFile = path.join(dir, 'other', 'registry.json');
    const r1 = await loadCatalog(opts({ cacheFile }));
    assert.equal(r1.origin.kind, 'live');
    const r2 = await loadCatalog(opts({ cacheFile, source: `${server.base}/broken.json` }));
    assert.equal(r2.origin.kind, 'offline');
  });

  it('a local file path is read as it is, uncached; a missing one gives the offline list', async () => {
    const file = path.join(dir, 'local-registry.json');
    writeFileSync(file, JSON.stringify(registry));
    const r = await loadCatalog(opts({ source: file }));
    assert.deepEqual(r.origin, { kind: 'file', source: file });
    assert.equal(r.catalog.agents.length, 2);
    const missing = await loadCatalog(opts({ source: path.join(dir, 'nope.json') }));
    assert.equal(missing.origin.kind, 'offline');
    assert.match(originText(missing.origin, clock), /nope\.json could not be read/);
  });

  it('an empty setting means the built-in list, without the network', async () => {
    const r = await loadCatalog(opts({ source: '  ', fetch: () => assert.fail('no fetch') }));
    assert.equal(r.origin.kind, 'offline');
    assert.match(originText(r.origin, clock), /no registry is set/);
  });
});
