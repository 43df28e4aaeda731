/**
 * Installs a registry agent's binary distribution into the extension's global storage:
 * `<root>/<agent id>/<version>/`, downloaded and checked (download.ts), unpacked (unpack.ts) into a staging
 * folder that replaces the installed one only when everything succeeded, with the agent's `cmd` made
 * executable. Returns the absolute path of the command, for the `acpChat.agents` entry.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ArchiveKind, BinaryTarget } from '../../common/agents/registry';
import { downloadArchive, type DownloadOptions } from './download';
import { entryPath, unpackArchive } from './unpack';

export interface InstallOptions {
  readonly agentId: string;
  /** Absent for an agent of the built-in list, which pins none. */
  readonly version: string | undefined;
  readonly target: BinaryTarget;
  readonly archive: ArchiveKind;
  /** The folder all installed agents live in (under the extension's global storage). */
  readonly root: string;
  readonly fetch: typeof fetch;
  readonly platform: NodeJS.Platform;
  readonly signal?: AbortSignal;
  readonly onProgress?: DownloadOptions['onProgress'];
  readonly maxBytes?: number;
}

export async function installBinary(o: InstallOptions): Promise<string> {
  if (o.archive === 'unsupported')
    throw new Error(`${o.target.archive}: this archive format cannot be unpacked here (supported: .zip, .tar.gz, .tgz, .tar.bz2, .tbz2, or a bare executable)`);
  const archive = o.archive;
  const dir = installDir(o.root, o.agentId, o.version);
  const tag = randomBytes(6).toString('hex');
  const staging = `${dir}.partial-${tag}`;
  const download = path.join(o.root, `.download-${tag}`);
  await mkdir(staging, { recursive: true });
  try {
    await downloadArchive({
      url: o.target.archive,
      file: download,
      fetch: o.fetch,
      ...pick(o, 'signal', 'onProgress', 'maxBytes'),
      ...(o.target.sha256 ? { sha256: o.target.sha256 } : {}),
    });
    const cmd = o.target.cmd.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
    await unpackArchive(archive, download, staging, cmd);
    const staged = entryPath(staging, cmd);
    if (
      !(await stat(staged).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      throw new Error(`the archive has no '${o.target.cmd}' (the command the registry names)`);
    if (o.platform !== 'win32') await chmod(staged, 0o755);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    return entryPath(dir, cmd);
  } finally {
    await rm(download, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** Where an agent is installed. The id and version come from the registry: each becomes one plain folder name, never a path. */
export function installDir(root: string, agentId: string, version: string | undefined): string {
  return path.join(root, folderName(agentId), folderName(version ?? 'unversioned'));
}

function folderName(s: string): string {
  const safe = s.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return safe === '' ? '_' : safe;
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
