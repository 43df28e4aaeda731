/**
 * macOS has no /proc: the watchdog finds its tree with one `ps`. `-E` appends each process's environment
 * (as it was at exec) to its command line, for processes of this user, which is all the watchdog may
 * signal anyway; `-ww` keeps lines whole. A process is in the tree when it is in the watchdog's group,
 * or when it left the group (setsid, e.g. a detached grandchild) but its environment carries the tree's
 * token. Zombies are already gone, and the `ps` that was run is not part of the tree.
 *
 * The watchdog is plain JavaScript run by `node -e`, so this is its source text, evaluated there with
 * the platform and a way to run `ps` passed in; unit tests run the same text with recorded output.
 */

/** What the watchdog signals: its group's live members, and the detached processes with its token. */
interface TreeMembers {
  readonly inGroup: number[];
  readonly strays: number[];
}

/** Runs `ps` with these arguments: its pid (to leave it out) and its standard output; throws when it fails. */
export type RunPs = (args: readonly string[]) => { readonly pid: number; readonly stdout: string };

/** The signature of the function PS_MEMBERS_SOURCE declares: null where unknown (not macOS, or `ps` failed). */
export type PsMembers = (platform: string, selfPid: number, mark: string, runPs: RunPs) => TreeMembers | null;

export const PS_MEMBERS_SOURCE = String.raw`function psMembers(platform, selfPid, mark, runPs) {
  if (platform !== 'darwin') return null;
  let ran;
  try { ran = runPs(['-axww', '-E', '-o', 'pid=,pgid=,stat=,command=']); } catch { return null; }
  const inGroup = [];
  const strays = [];
  for (const line of ran.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === selfPid || pid === ran.pid || m[3].startsWith('Z')) continue;
    if (Number(m[2]) === selfPid) inGroup.push(pid);
    else if ((' ' + m[4] + ' ').includes(' ' + mark + ' ')) strays.push(pid);
  }
  return { inGroup, strays };
}`;
