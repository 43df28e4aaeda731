/**
 * The agent list *Add Agent…* shows: the registry named by `acpChat.agentRegistry` (machine scope, so a
 * workspace cannot point it elsewhere), cached in global storage, with the bundled catalog as the offline
 * list; and, per agent, what its distribution needs here.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import bundled from '../../common/agents/catalog.json';
import { userScopedSettings } from '../../common/config/settings';
import { launchPlan, platformKey, type LaunchPlan, type Platform, type RegistryAgent } from '../../common/agents/registry';
import { findOnPath } from '../../node/findOnPath';
import { DEFAULT_REGISTRY_URL, loadCatalog, type LoadedCatalog } from '../../node/registry/registrySource';

/** How long the picker waits for the registry before it shows the offline list. */
const FETCH_TIMEOUT_MS = 20_000;

export interface Candidate {
  readonly agent: RegistryAgent;
  readonly plan: LaunchPlan | null;
  /** For an npx/uvx agent: where its runner was found on PATH, or null when it is missing. */
  readonly found: string | null;
}

export interface CatalogView extends LoadedCatalog {
  readonly platform: Platform | null;
  readonly candidates: readonly Candidate[];
}

/** The registry setting, from the user's settings only: a registry decides what commands get written. */
function registrySetting(log: (line: string) => void): string {
  const config = vscode.workspace.getConfiguration('acpChat');
  const read = userScopedSettings(
    (k) => config.get(k),
    (k) => config.inspect(k),
    (k) => log(`acpChat.${k} in the workspace settings is ignored: only the user's settings may set it`),
  );
  const v = read('agentRegistry');
  return typeof v === 'string' ? v : DEFAULT_REGISTRY_URL;
}

export async function catalogView(globalStorage: string, force: boolean, log: (line: string) => void, source = registrySetting(log)): Promise<CatalogView> {
  const loaded = await loadCatalog({
    source,
    cacheFile: path.join(globalStorage, 'registry', 'registry.json'),
    bundled,
    // The extension host's global fetch goes through VS Code's proxy support (http.proxy, the system
    // proxy, system certificates: VS Code patches it when http.fetchAdditionalSupport is on, the default
    // in every VS Code this extension supports, engines ^1.100), so no HTTP library or agent of our own.
    fetch,
    now: () => Date.now(),
    force,
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  for (const p of loaded.catalog.problems) log(`agent registry: ${p}`);
  if (loaded.origin.kind === 'offline' || (loaded.origin.kind === 'cached' && loaded.origin.reason))
    log(`agent registry: ${loaded.origin.kind === 'offline' ? 'offline list' : 'cached list'}: ${loaded.origin.reason}`);
  const platform = platformKey(process.platform, process.arch);
  const candidates = await Promise.all(
    loaded.catalog.agents.map(async (agent): Promise<Candidate> => {
      const plan = launchPlan(agent, platform);
      return { agent, plan, found: plan?.kind === 'package' ? await findOnPath(plan.program) : null };
    }),
  );
  return { ...loaded, platform, candidates };
}

/** One line on what adding this agent takes here. */
export function needsText(c: Candidate): string {
  if (!c.plan) return 'not available for this platform';
  if (c.plan.kind === 'package') return c.found ? `${c.plan.program} found` : `needs ${c.plan.requires}: ${c.plan.program} is not on PATH`;
  if (c.plan.archive === 'unsupported') return `binary in a format that cannot be unpacked here (${archiveName(c.plan.target.archive)})`;
  return `downloads ${archiveName(c.plan.target.archive)}${c.plan.target.sha256 ? ' (checksum given)' : ''}`;
}

function archiveName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname.split('/').pop() ?? ''} from ${u.host}`;
  } catch {
    return url;
  }
}
