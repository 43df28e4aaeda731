/**
 * The ripgrep that VS Code ships (its search uses it), for history search: desktop VS Code keeps it in
 * `@vscode/ripgrep` (unpacked beside the asar archive), code-server in `@vscode/ripgrep-universal` per
 * platform. Undefined when none is found: history search then reads the files itself (historySearch.ts).
 */
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';

let found: string | undefined | null = null;

export function ripgrepPath(): string | undefined {
  if (found !== null) return found;
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const root = vscode.env.appRoot;
  const candidates = [
    path.join(root, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    path.join(root, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    path.join(root, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
  ];
  found = candidates.find((c) => existsSync(c));
  return found;
}
