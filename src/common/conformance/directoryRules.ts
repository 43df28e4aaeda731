/**
 * Directories on the wire must be absolute (stable v1: `cwd` and every `additionalDirectories` item of
 * session/new, load, resume and fork; `SessionInfo` in a session/list result; a subagent's placement in
 * `subagent_update`). The checker cannot know the peer's platform, so an absolute path is one in either
 * family: `/x`, `C:\x` / `C:/x`, or a UNC `\\server\share`.
 */
type Json = Record<string, unknown>;

function absolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || /^\\\\[^\\]+\\[^\\]+/.test(p);
}

/** The first non-absolute entry of `additionalDirectories` (or `cwd`) in `o`, as a readable name, or undefined. */
export function relativeDirectory(o: Json): { field: string; value: string } | undefined {
  if (typeof o['cwd'] === 'string' && !absolute(o['cwd'])) return { field: 'cwd', value: o['cwd'] };
  const dirs = o['additionalDirectories'];
  if (!Array.isArray(dirs)) return undefined;
  const i = dirs.findIndex((d) => typeof d === 'string' && !absolute(d));
  return i < 0 ? undefined : { field: `additionalDirectories[${i}]`, value: String(dirs[i]) };
}
