/**
 * The one module that knows the public ACP agent registry's format (`registry.json`: `{ version, agents }`,
 * each agent with `npx`, `uvx` or per-platform `binary` distributions; see the registry's FORMAT.md and
 * agent.schema.json). The bundled catalog is a file in this format, so the live registry replaces it.
 * Parsed with zod: strict on the envelope, tolerant per agent (unknown fields are ignored; a malformed
 * agent is skipped and reported, the rest stay usable). Turns one distribution into an `acpChat.agents` entry.
 */
import * as z from 'zod';
import type { AgentConfig } from '../config/settings';
import { issueText } from '../util/errors';

const zEnv = z.record(z.string(), z.string());
const zPackageDist = z.object({ package: z.string().min(1), cmd: z.string().min(1).optional(), args: z.array(z.string()).optional(), env: zEnv.optional() });
const zBinaryTarget = z.object({
  archive: z.string().min(1),
  cmd: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: zEnv.optional(),
  /** The archive's SHA-256, hex (optional in the registry's schema). */
  sha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/i, '64 hex digits')
    .optional(),
});
export type BinaryTarget = z.infer<typeof zBinaryTarget>;

export const PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type Platform = (typeof PLATFORMS)[number];

const zRegistryAgent = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'an id of letters, digits, dots, dashes and underscores'),
  name: z.string().min(1),
  version: z.string(),
  description: z.string(),
  repository: z.string().optional(),
  website: z.string().optional(),
  authors: z.array(z.string()).optional(),
  license: z.string().optional(),
  icon: z.string().optional(),
  distribution: z
    .object({
      npx: zPackageDist.optional(),
      uvx: zPackageDist.optional(),
      // Unknown platform keys are kept out rather than failing the agent.
      binary: z.record(z.string(), zBinaryTarget).optional(),
    })
    .refine((d) => d.npx || d.uvx || d.binary, 'at least one distribution'),
});
/** The built-in list pins no versions (npx and uvx fetch the latest), so its agents may leave it out. */
const zBuiltInAgent = zRegistryAgent.extend({ version: z.string().optional() });
export type RegistryAgent = z.infer<typeof zBuiltInAgent>;

const zRegistryEnvelope = z.object({ version: z.string(), agents: z.array(z.unknown()) });

export interface Catalog {
  readonly version: string;
  readonly agents: readonly RegistryAgent[];
  /** One line per agent that was skipped, saying why. */
  readonly problems: readonly string[];
}

/**
 * Parses a registry document; throws only when the envelope itself is wrong. `builtIn`: the bundled list,
 * whose agents may have no version.
 */
export function parseCatalog(raw: unknown, { builtIn = false }: { readonly builtIn?: boolean } = {}): Catalog {
  const zAgent = builtIn ? zBuiltInAgent : zRegistryAgent;
  const env = zRegistryEnvelope.safeParse(raw);
  if (!env.success) throw new Error(`Not an ACP agent registry: ${issueText(env.error)}`);
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  env.data.agents.forEach((a, i) => {
    const r = zAgent.safeParse(a);
    if (r.success) agents.push(r.data);
    else problems.push(`agent ${i + 1}${typeof a === 'object' && a && 'id' in a ? ` (${String((a as { id: unknown }).id)})` : ''} skipped: ${issueText(r.error)}`);
  });
  return { version: env.data.version, agents, problems };
}

/** How one catalog agent would be launched here, and what has to be on PATH for that. */
export type LaunchPlan = PackagePlan | BinaryPlan;

interface PackagePlan {
  readonly kind: 'package';
  readonly entry: AgentConfig;
  /** The runner that must be found on PATH (npx or uvx). */
  readonly program: string;
  /** What to install when `program` is missing, for the user. */
  readonly requires: string;
}

/** A per-platform archive to download and unpack; `entry.command` is `cmd` relative to the unpacked folder. */
export interface BinaryPlan {
  readonly kind: 'binary';
  readonly entry: AgentConfig;
  readonly target: BinaryTarget;
  readonly archive: ArchiveKind;
}

/**
 * The `acpChat.agents` entry for an agent: npx first (the most common and needs only Node), then uvx,
 * then a binary archive for this platform (downloaded only when the user agrees). Null when the agent has
 * no distribution usable here.
 */
export function launchPlan(agent: RegistryAgent, platform: Platform | null): LaunchPlan | null {
  const base = { id: agent.id, name: agent.name, cwd: undefined };
  const d = agent.distribution;
  const pkg = (runner: 'npx' | 'uvx', p: z.infer<typeof zPackageDist>): LaunchPlan => {
    // `npx -y pkg args` / `uvx pkg args`; with `cmd`, the package's other binary: `npx -y --package pkg cmd`.
    const head = runner === 'npx' ? (p.cmd ? ['-y', '--package', p.package, p.cmd] : ['-y', p.package]) : p.cmd ? ['--from', p.package, p.cmd] : [p.package];
    return {
      kind: 'package',
      entry: { ...base, command: runner, args: [...head, ...(p.args ?? [])], env: { ...(p.env ?? {}) } },
      program: runner,
      requires: runner === 'npx' ? `Node.js (npx); the package ${p.package} is fetched on first start` : `uv (uvx); the package ${p.package} is fetched on first start`,
    };
  };
  if (d.npx) return strip(pkg('npx', d.npx));
  if (d.uvx) return strip(pkg('uvx', d.uvx));
  const target = binaryFor(d.binary, platform);
  if (target) {
    return strip({
      kind: 'binary',
      entry: { ...base, command: target.cmd, args: [...(target.args ?? [])], env: { ...(target.env ?? {}) } },
      target,
      archive: archiveKind(target.archive),
    });
  }
  return null;
}

/** The archive formats we unpack; a URL whose name ends otherwise is a raw executable. */
export type ArchiveKind = 'zip' | 'tar.gz' | 'tar.bz2' | 'raw' | 'unsupported';

/**
 * The archive's format, from the name at the end of its URL's path (the registry names formats by
 * extension). xz has no decoder here and installer formats are not archives: both unsupported.
 */
export function archiveKind(url: string): ArchiveKind {
  const name = (url.split(/[?#]/)[0] ?? '').toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar.bz2') || name.endsWith('.tbz2') || name.endsWith('.tbz')) return 'tar.bz2';
  if (/\.(tar\.xz|txz|tar|dmg|pkg|deb|rpm|msi|appimage)$/.test(name)) return 'unsupported';
  return 'raw';
}

/**
 * An agent's icon as something safe to hand to VS Code: an https URL or an image data URI, never a script
 * or file URL. The icon is untrusted; it is only ever shown as an image, never as markup.
 */
export function safeIconUrl(icon: string | undefined): string | undefined {
  if (!icon) return undefined;
  if (/^data:image\/(svg\+xml|png|jpeg|gif|webp)[;,]/i.test(icon)) return icon;
  try {
    return new URL(icon).protocol === 'https:' ? icon : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The archive for this platform: the native build, else (Windows and macOS on ARM) the x86_64 build,
 * which those systems run under emulation (Prism, Rosetta 2). Linux has no such fallback.
 */
function binaryFor<T>(binary: Readonly<Record<string, T>> | undefined, platform: Platform | null): T | undefined {
  if (!binary || !platform) return undefined;
  const emulated = platform === 'windows-aarch64' ? 'windows-x86_64' : platform === 'darwin-aarch64' ? 'darwin-x86_64' : undefined;
  return binary[platform] ?? (emulated ? binary[emulated] : undefined);
}

/** Drops the undefined `cwd` so the written setting holds only what the user would write. */
function strip<P extends LaunchPlan>(plan: P): P {
  const { cwd: _cwd, ...entry } = plan.entry;
  return { ...plan, entry };
}

/** The registry's platform key for Node's `process.platform` / `process.arch`. */
export function platformKey(platform: string, arch: string): Platform | null {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : null;
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : null;
  return os && cpu ? (`${os}-${cpu}` as Platform) : null;
}

/** An id not yet used by the configured agents (the catalog id, then id-2, id-3, ...). */
export function freeId(id: string, taken: readonly string[]): string {
  if (!taken.includes(id)) return id;
  for (let n = 2; ; n++) if (!taken.includes(`${id}-${n}`)) return `${id}-${n}`;
}
