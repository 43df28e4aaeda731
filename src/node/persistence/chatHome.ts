/**
 * Where a workspace's chats are kept: `<globalStorage>/workspaces/<key>/sessions`, the key derived from
 * the workspace's identity (src/common/chats/workspaceIdentity.ts), so every window of the workspace
 * finds them whichever `workspaceStorage/<hash>` folder VS Code gave it. Chats kept by earlier versions
 * in a storage folder of the workspace (the current one, its `<hash>-N` siblings, and any other whose
 * `workspace.json` names the same workspace) are moved in once: copied where the home lacks them, the
 * chat lists merged, and the old folder marked so it is not read again (its files are left in place).
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { mergeChatIndex, parseChatIndex } from '../../common/chats/chatIndex';
import { pathsIgnoreCase, workspaceIdentity, workspaceJsonLocation, type WorkspaceLocation } from '../../common/chats/workspaceIdentity';
import { errorText } from '../../common/util/errors';
import { CHAT_STATE_EXTS, chatIdsIn } from './chatFiles';

export const INDEX_FILE = 'chats.json';
/** Written into an old sessions folder once its chats were moved; names where they went. */
export const MOVED_FILE = 'moved-to-home.json';

/** The chats folder of a workspace (a window without folders keeps its chats in the global folder). */
export function chatHomeDir(globalStorage: string, identity: string | undefined): string {
  if (identity === undefined) return path.join(globalStorage, 'sessions');
  const key = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return path.join(globalStorage, 'workspaces', key, 'sessions');
}

export interface LegacySearch {
  /** This window's `context.storageUri` folder: `<user>/workspaceStorage/<hash>/<extension id>`. */
  readonly storage: string;
  readonly identity: string;
  readonly ignoreCase: boolean;
  /** A `workspace.json` URI as a path to compare (links resolved), or the URI itself when not a file. */
  readonly uriToPath: (uri: string) => Promise<string>;
}

/**
 * The `sessions` folders of this workspace's storage folders that hold chats not yet moved: this
 * window's, its `<hash>-N` siblings, and any other whose workspace.json names this workspace.
 */
export async function legacySessionDirs(s: LegacySearch): Promise<string[]> {
  const extDir = path.basename(s.storage);
  const own = path.dirname(s.storage);
  const root = path.dirname(own);
  const base = path.basename(own).replace(/-\d+$/, '');
  const names = await readdir(root).catch(() => [] as string[]);
  const found: string[] = [];
  for (const name of names) {
    const sessions = path.join(root, name, extDir, 'sessions');
    if (!(await isDir(sessions)) || (await exists(path.join(sessions, MOVED_FILE)))) continue;
    if (name === base || new RegExp(`^${escapeRe(base)}-\\d+$`).test(name) || (await namesWorkspace(path.join(root, name), s))) found.push(sessions);
  }
  return found;
}

async function namesWorkspace(folder: string, s: LegacySearch): Promise<boolean> {
  const text = await readFile(path.join(folder, 'workspace.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return false;
  }
  const uris = workspaceJsonLocation(raw, (u) => u);
  if (!uris) return false;
  const location: WorkspaceLocation =
    uris.workspaceFile !== undefined ? { workspaceFile: await s.uriToPath(uris.workspaceFile), folders: [] } : { folders: await Promise.all(uris.folders.map(s.uriToPath)) };
  return workspaceIdentity(location, s.ignoreCase) === s.identity;
}

/**
 * Moves the chats of `from` (an old sessions folder) into `home`: each chat the home lacks is copied
 * (every file of its state), the chat lists are merged, then `from` is marked. Returns the ids copied.
 */
export async function moveChatsHome(from: string, home: string, log: (message: string) => void): Promise<string[]> {
  await mkdir(home, { recursive: true });
  const [fromNames, homeNames] = await Promise.all([readdir(from).catch(() => [] as string[]), readdir(home).catch(() => [] as string[])]);
  const present = new Set(chatIdsIn(homeNames));
  const copied: string[] = [];
  for (const id of chatIdsIn(fromNames)) {
    if (present.has(id)) continue;
    // Every part, or the chat is not counted as moved (and the folder not marked): a retry copies again.
    for (const ext of CHAT_STATE_EXTS) {
      if (!fromNames.includes(id + ext)) continue;
      await copyFile(path.join(from, id + ext), path.join(home, id + ext));
    }
    copied.push(id);
  }
  const theirs = await readJson(path.join(from, INDEX_FILE), log);
  if (theirs !== undefined) {
    const mine = parseChatIndex(await readJson(path.join(home, INDEX_FILE), log), log);
    const merged = mergeChatIndex({ version: 1, ...mine }, theirs, new Set(), log);
    await writeAtomic(path.join(home, INDEX_FILE), JSON.stringify(merged));
  }
  await writeFile(path.join(from, MOVED_FILE), JSON.stringify({ to: home, at: new Date().toISOString(), chats: copied }));
  return copied;
}

export interface ChatHomeInputs {
  readonly globalStorage: string;
  /** This window's `context.storageUri` folder (undefined: no workspace). */
  readonly storage: string | undefined;
  readonly location: WorkspaceLocation;
  readonly platform: string;
}

/**
 * The chats folder for these inputs, with the chats of the workspace's older storage folders moved in.
 * `moved`: how many; `recovered`: how many of them came from a folder other than this window's (chats
 * this window could not see before).
 */
export async function chatHome(i: ChatHomeInputs, log: (message: string) => void): Promise<{ dir: string; moved: number; recovered: number }> {
  const ignoreCase = pathsIgnoreCase(i.platform);
  const identity = workspaceIdentity(i.location, ignoreCase);
  const dir = chatHomeDir(i.globalStorage, identity);
  let moved = 0;
  let recovered = 0;
  if (identity !== undefined && i.storage !== undefined) {
    const dirs = await legacySessionDirs({ storage: i.storage, identity, ignoreCase, uriToPath: uriPath }).catch((e: unknown) => {
      log(`could not look for chats in older storage folders: ${errorText(e)}`);
      return [];
    });
    for (const from of dirs) {
      try {
        const ids = await moveChatsHome(from, dir, log);
        moved += ids.length;
        if (from !== path.join(i.storage, 'sessions')) recovered += ids.length;
        if (ids.length > 0) log(`moved ${ids.length} chat(s) from ${from} to ${dir}`);
      } catch (e) {
        log(`could not move the chats of ${from}: ${errorText(e)} (they stay there; a later start tries again)`);
      }
    }
  }
  return { dir, moved, recovered };
}

async function uriPath(uri: string): Promise<string> {
  if (!uri.startsWith('file:')) return uri;
  try {
    return await realpath(fileURLToPath(uri)).catch(() => fileURLToPath(uri));
  } catch {
    return uri;
  }
}

export async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

async function readJson(file: string, log: (message: string) => void): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    log(`${file} is not JSON and is left out: ${errorText(e)}`);
    return undefined;
  }
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() ?? false;
}

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined)) !== undefined;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
