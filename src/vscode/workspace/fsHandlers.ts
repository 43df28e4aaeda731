/**
 * `fs/read_text_file` and `fs/write_text_file` for the extension, so an agent sees what the user sees:
 * reads return an open editor's unsaved text, and writes land on disk through the checked handle, where
 * an open editor picks them up; a file with unsaved changes in an editor is not written over.
 *
 * The workspace boundary (`src/node/fileRequests.ts`, shared with the CLI): an agent's read, write or
 * terminal is judged by its real path (`..` and symlinks resolved); outside the workspace folders, or a
 * hard link, needs the user's consent unless `acpChat.outsideWorkspace` says otherwise. A write to a file
 * that configures VS Code, git or this extension needs consent under every setting but `deny` (which
 * refuses it). Reads and writes open the judged real path the way the CLI does (`src/node/safeFs.ts`),
 * proving the opened handle is the file judged. "Allow for This Session" remembers the folder for that
 * ACP session of that chat (configuration files apart); "Deny for This Session" refuses the rest of that
 * session's requests of that kind.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { decide, decideConfigWrite, describeAccess, SessionGrants, type Access, type OutsideWorkspacePolicy } from '../../common/boundary';
import { insideAny, pathStyle, type PathStyle } from '../../common/pathBoundary';
import { sliceLines } from '../../common/text';
import { noticeLines, noticeText } from '../../common/untrusted';
import { admitFile, CONFIG_FILE, OUTSIDE, type FileBoundary } from '../../node/fileRequests';
import { boundaryRefusal, realPathOf, realRoots } from '../../node/realPath';
import { readChecked, readText, recheckTarget, writeChecked } from '../../node/safeFs';
import { rpcError } from '../../node/transport/connection';
import { ErrorCodes } from '../../common/protocol/methods';
import { inFileEol } from '../../common/changes/eol';
import type { AgentWrite, Requester } from '../../node/chat/clientHandlers';

/** Asks the user (a modal warning by default; scripted in tests): resolves to the chosen button or undefined. */
export type Confirm = (message: string, detail: string, ...buttons: string[]) => Promise<string | undefined>;

const modalWarning: Confirm = (message, detail, ...buttons) => Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons));

function openDocument(path: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(path).fsPath;
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath);
}

/** How long a write waits for an open editor to reload the file: what the agent reads or the user edits next is then the new text. */
const RELOAD_WAIT_MS = 3000;
const sameText = (a: string, b: string) => a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');

/** Resolves when a clean document shows `text` (VS Code reloads it on the file's change), false after RELOAD_WAIT_MS. */
function showsText(doc: vscode.TextDocument, text: string): Promise<boolean> {
  if (sameText(doc.getText(), text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (shown: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(shown);
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && sameText(doc.getText(), text)) done(true);
    });
    const timer = setTimeout(() => done(false), RELOAD_WAIT_MS);
  });
}

/** Whether to show each file an agent edits, and the chat's column (an edited file never opens over the chat). */
export interface FollowEdits {
  readonly enabled: () => boolean;
  readonly chatColumn: () => vscode.ViewColumn | undefined;
}

/**
 * A worktree chat's boundary: its worktree is its whole workspace, and the user's checkout and the other
 * chats' worktrees (`fenced`) are refused without asking, whatever `acpChat.outsideWorkspace` says.
 */
export interface Confinement {
  readonly root: string;
  readonly fenced: () => readonly string[];
}

export class FileAccess {
  private readonly grants: SessionGrants;

  /** `follow`: whether edited files are shown (the user's opt-in), and where the chat is, so they never open over it. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly follow: FollowEdits = { enabled: () => false, chatColumn: () => undefined },
    private readonly policy: () => OutsideWorkspacePolicy = () => 'ask',
    private readonly confirm: Confirm = modalWarning,
    private readonly style: PathStyle = pathStyle(process.platform),
    private readonly confinement?: Confinement,
  ) {
    this.grants = new SessionGrants(style);
  }

  /** The same access (settings, consent) for a chat confined to one folder (a worktree chat). */
  confined(c: Confinement): FileAccess {
    return new FileAccess(this.log, this.follow, this.policy, this.confirm, this.style, c);
  }

  /** A file's text as the user sees it (an open editor's unsaved text wins). No boundary: for the user's own mentions. */
  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const open = openDocument(path);
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
    return sliceLines(text, line, limit);
  }

  /** `fs/read_text_file` behind the boundary: an open editor's unsaved text, else the judged file from disk. */
  async agentRead(p: { path: string; line?: number | null; limit?: number | null }, who: Requester): Promise<string> {
    const t = await admitFile('read', p.path, this.boundary(who));
    const open = openDocument(t.real) ?? openDocument(p.path);
    return open ? sliceLines(open.getText(), p.line, p.limit) : readChecked(await recheckTarget(t), p.line, p.limit);
  }

  private boundary(who: Requester): FileBoundary {
    return { style: this.style, roots: () => this.roots(), judge: (access, t, why) => this.judge(access, t.requested, t.real, why, who) };
  }

  private roots(): Promise<string[]> {
    if (this.confinement) return realRoots([this.confinement.root]);
    return realRoots((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
  }

  /** `terminal/create`'s working directory: allowed inside the workspace, else as the user says. */
  async checkTerminalCwd(cwd: string, who: Requester): Promise<void> {
    await this.permit('terminal', cwd, who);
  }

  /** Resolves a terminal's directory to its real path and lets it through, asks the user, or throws a JSON-RPC error that says why. */
  async permit(access: Access, target: string, who: Requester): Promise<void> {
    if (!nodePath.isAbsolute(target)) throw boundaryRefusal(`path must be absolute: ${target}`, target, target);
    const real = await realPathOf(target);
    if (!insideAny(await this.roots(), real, this.style)) await this.judge(access, target, real, OUTSIDE, who);
  }

  /** An access that counts as outside the workspace (`why`): allowed by the setting or a grant, asked, or refused. */
  private async judge(access: Access, target: string, real: string, why: string, who: Requester): Promise<void> {
    // A config write is its own kind of consent: an outside grant or "allow" does not cover it, nor the reverse.
    // Fenced: what lies outside the chat's own worktree (its config files are asked about like any chat's).
    if (this.confinement && !insideAny(await this.roots(), real, this.style) && insideAny(await realRoots([...this.confinement.fenced()]), real, this.style)) {
      this.log.warn(`refused ${access} of ${real}: a worktree chat works only in its worktree`);
      throw boundaryRefusal(`refused: ${real} is outside this chat's worktree (the user's checkout or another chat's worktree)`, target, real);
    }
    const config = why === CONFIG_FILE;
    const grantKey = `${who.scope}\n${who.sessionId}${config ? '\nconfig' : ''}`;
    const decision = config ? decideConfigWrite(this.policy()) : decide(this.policy(), access, false);
    if (decision === 'allow' || this.grants.allows(grantKey, access, real)) return;
    const shown = real === nodePath.normalize(target) ? target : `${target} (really ${real})`;
    const where = why === OUTSIDE ? 'outside the workspace' : `(${why})`;
    if (this.grants.denies(grantKey, access)) {
      this.log.warn(`refused ${access} ${where}: ${shown} (denied for this session)`);
      throw boundaryRefusal(`refused: ${real} is ${why} and the user denied this for the session`, target, real);
    }
    if (decision === 'deny') {
      this.log.warn(`refused ${access} ${where}: ${shown} (acpChat.outsideWorkspace is "deny")`);
      throw boundaryRefusal(`refused: ${real} is ${why} and acpChat.outsideWorkspace is "deny"`, target, real);
    }
    // A terminal grant covers its directory; a file grant the file's folder.
    const folder = access === 'terminal' ? real : nodePath.dirname(real);
    const about = why === OUTSIDE ? why : `(${nodePath.basename(real)}: ${why})`;
    const once = 'Allow Once';
    const session = 'Allow for This Session';
    const never = 'Deny for This Session';
    const answer = await this.confirm(
      `${noticeText(who.agentName)} wants to ${describeAccess(access)} ${noticeText(about)}`,
      noticeLines(
        target,
        ...(real === nodePath.normalize(target) ? [] : [`which really is ${real}`]),
        '',
        `"Allow for This Session" allows this under ${folder} until the session ends; "Deny for This Session" stops asking. The acpChat.outsideWorkspace setting changes when ACP Chat asks.`,
      ),
      once,
      session,
      never,
    );
    if (answer === session) this.grants.grant(grantKey, access, folder);
    if (answer === never) this.grants.deny(grantKey, access);
    if (answer !== once && answer !== session) {
      this.log.warn(`the user refused ${access} ${where}: ${shown}`);
      const what = { read: 'reading', write: 'writing', terminal: 'a terminal in' }[access];
      throw boundaryRefusal(`the user did not allow ${what} ${real} (${why})`, target, real);
    }
    this.log.info(`the user allowed ${access} ${where}${answer === session ? ' for this session' : ' once'}: ${shown}`);
  }

  /** Whether a path is inside the workspace folders, by real path (as the boundary judges it). */
  async insideWorkspace(path: string): Promise<boolean> {
    if (!nodePath.isAbsolute(path)) return false;
    return insideAny(await this.roots(), await realPathOf(path), this.style);
  }

  /**
   * `fs/write_text_file`, behind the boundary. Returns what the file held before (null: it did not exist)
   * and after, for the turn's Changes summary (whose Undo puts it back); null when the write changed nothing.
   *
   * The bytes go through the checked handle (`writeChecked`: the judged file, in its held folder, replaced
   * atomically), never through VS Code opening the agent's path, so nothing can swap the path between the
   * check and the write. An editor that shows the file unchanged reloads it from disk (VS Code watches the
   * files it has open; the reload is one step on the editor's undo stack). An editor with unsaved changes
   * refuses the write instead: neither the user's unsaved work nor the agent's write is silently lost.
   */
  async agentWrite(path: string, content: string, who: Requester): Promise<AgentWrite | null> {
    const t = await admitFile('write', path, this.boundary(who));
    const open = openDocument(t.real) ?? openDocument(path);
    if (open?.isDirty) {
      this.log.warn(`fs/write_text_file: refused ${path}: it has unsaved changes in an editor`);
      throw rpcError(ErrorCodes.invalidParams, `refused: ${path} has unsaved changes in the user's editor; the user must save or revert them first`, {
        reason: 'unsaved_changes',
        path,
      });
    }
    // Followed, a file is opened before the write, so the editor's reload is a step Ctrl+Z can undo there.
    const doc = open ?? (this.follow.enabled() && t.id ? await vscode.workspace.openTextDocument(vscode.Uri.file(t.real)) : undefined);
    let previous: string | null = null;
    let written = content;
    const wrote = await writeChecked(t, async (existing) => {
      if (existing === null) return content;
      previous = await readText(existing, t);
      // The file keeps its line endings: LF content for a CRLF file is the same text.
      written = inFileEol(previous, content);
      return written === previous ? null : written;
    });
    if (!wrote) {
      // Some agents (OpenCode) also write the file themselves, often first: nothing changed and there is
      // nothing to undo, so say so in the log instead of reporting a change.
      this.log.info(`fs/write_text_file: ${path} already has this content (the agent wrote it itself); not written`);
      if (doc && this.follow.enabled()) await this.show(doc);
      return null;
    }
    this.log.info(`fs/write_text_file: ${path} (${content.length} chars) written through the checked handle`);
    if (doc && !(await showsText(doc, written))) this.log.warn(`fs/write_text_file: the editor of ${path} has not reloaded it from disk yet`);
    if (this.follow.enabled()) await this.show(doc ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(t.real))));
    return { previous, written };
  }

  /**
   * Follow the agent (when the user asked to): show the edited file without taking focus from the chat,
   * so the change is visible and can be undone right there — in another editor group than the chat's.
   */
  private async show(doc: vscode.TextDocument): Promise<void> {
    const chat = this.follow.chatColumn();
    const column = chat === undefined || chat !== vscode.ViewColumn.One ? vscode.ViewColumn.One : vscode.ViewColumn.Two;
    await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: true, preview: true });
  }
}
