/**
 * Turns what the user typed into ACP content blocks: the text, plus one block per `@`-mentioned file —
 * an embedded `resource` (the editor's current text, unsaved changes included) when the agent accepts
 * embedded context, else a `resource_link`, which every agent must accept.
 */
import * as vscode from 'vscode';
import path from 'node:path';
import type { ContentBlock } from '../../common/protocol/content';
import type { AgentCapabilities } from '../../common/protocol/requests';
import { fileUri, parseMentions, rankPaths } from '../../common/mentions';
import type { FileAccess } from '../workspace/fsHandlers';

/** Larger files are linked rather than embedded, so a mention cannot blow up the prompt. */
const MAX_EMBED_BYTES = 512 * 1024;

export async function buildPrompt(text: string, caps: AgentCapabilities | undefined, files: FileAccess, root: string | undefined): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [{ type: 'text', text }];
  const seen = new Set<string>();
  for (const m of parseMentions(text)) {
    const abs = path.isAbsolute(m.path) ? m.path : root ? path.join(root, m.path) : undefined;
    if (!abs || seen.has(abs)) continue;
    const stat = await vscode.workspace.fs.stat(vscode.Uri.file(abs)).then(
      (s) => s,
      () => undefined,
    );
    if (!stat || stat.type !== vscode.FileType.File) continue; // not a file: leave the text as typed
    seen.add(abs);
    const uri = fileUri(abs);
    const name = path.basename(abs);
    if (caps?.promptCapabilities?.embeddedContext === true && stat.size <= MAX_EMBED_BYTES) {
      try {
        blocks.push({ type: 'resource', resource: { uri, text: await files.read(abs) } });
        continue;
      } catch {
        // unreadable as text: fall back to a link
      }
    }
    blocks.push({ type: 'resource_link', uri, name, size: stat.size });
  }
  return blocks;
}

const EXCLUDE = '**/{node_modules,.git,dist,out,.cache,.vscode-host}/**';

/** Workspace files for an `@` query, relative to the workspace, best matches first. */
export async function findWorkspaceFiles(query: string): Promise<string[]> {
  // Glob metacharacters in what the user typed are matched literally.
  const safe = query.replace(/[\\{}[\]*?!]/g, '');
  const name = safe.split('/').pop() ?? '';
  const uris = await vscode.workspace.findFiles(name ? `**/*${name}*` : '**/*', EXCLUDE, 2000);
  const rel = uris.map((u) => vscode.workspace.asRelativePath(u, false));
  return rankPaths(rel, safe, 20);
}
