/**
 * How the review spells a file's path: as VS Code spells a document's (`Uri.fsPath`), so the file an agent
 * names and the editor that shows it are one key. VS Code writes a Windows drive letter in lower case
 * (`c:\x`), while agents and `path.resolve` keep whatever case they were given (`C:\x`): without this, a
 * Windows file the agent named with `C:` got no hunks in its editor. A POSIX path never starts with a
 * drive, so this is the same on every platform.
 */
export function reviewPath(absolute: string): string {
  return /^[A-Z]:/.test(absolute) ? absolute.charAt(0).toLowerCase() + absolute.slice(1) : absolute;
}
