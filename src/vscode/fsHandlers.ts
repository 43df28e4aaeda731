/**
 * `fs/read_text_file` and `fs/write_text_file` through VS Code, so an agent sees what the user sees:
 * reads return an open editor's unsaved text, and writes go through a WorkspaceEdit (undoable, shown in
 * the editor) and are then saved so tools that read the disk see them.
 *
 * The workspace boundary (`src/node/fileRequests.ts`, shared with the CLI): an agent's read, write or
 * terminal is judged by its real path (`..` and symlinks resolved); outside the workspace folders, a hard
 * link, or a write to a file that configures VS Code, git or this extension needs the user's consent unless
 * `acpChat.outsideWorkspace` says otherwise. The path is resolved again after the dialog; reads open the
 * judged real path the way the CLI does (`src/node/safeFs.ts`), writes check it again just before the edit
 * and after the save. "Allow for This Session" remembers the folder for that ACP session of
 * that chat; "Deny for This Session" refuses the rest of that session's requests of that kind.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { decide, describeAccess, SessionGrants, type Access, type OutsideWorkspacePolicy } from '../common/boundary';
import { insideAny, pathStyle, type PathStyle } from '../common/pathBoundary';
import { sliceLines } from '../common/text';
import { noticeLines, noticeText } from '../common/untrusted';
import { admitFile, OUTSIDE, type FileBoundary } from '../node/fileRequests';
import { boundaryRefusal, realPathOf, realRoots } from '../node/realPath';
import { inspectTarget, readChecked, recheckTarget } from '../node/safeFs';
import { inFileEol } from '../common/changes/eol';

/** Who asks: the agent's display name and the ACP session the request belongs to. */
export interface Requester {
  readonly agentName: string;
  readonly sessionId: string;
  /** Whose session it is (the chat): "Allow for This Session" never carries over to another chat's session of the same id. */
  readonly scope: string;
}

/** Asks the user (a modal warning by default; scripted in tests): resolves to the chosen button or undefined. */
export type Confirm = (message: string, detail: string, ...buttons: string[]) => Promise<string | undefined>;

const modalWarning: Confirm = (message, detail, ...buttons) => Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons));

function openDocument(path: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(path).fsPath;
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath);
}

/** A write the agent made through the client: the file's text before (null: it did not exist) and after. */
export interface AgentWrite {
  readonly previous: string | null;
  readonly written: string;
}

/** Whether to show each file an agent edits, and the chat's column (an edited file never opens over the chat). */
export interface FollowEdits {
  readonly enabled: () => boolean;
  readonly chatColumn: () => vscode.ViewColumn | undefined;
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
  ) {
    this.grants = new SessionGrants(style);
  }

  /** A file's text as the user sees it (an open editor's unsaved text wins). No boundary: for the user's own mentions. */
  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const open = openDocument(path);
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
    return sliceLines(text, line, limit);
  }

  /** `fs/read_text_file` behind the boundary: an open editor's text, else the judged file from disk. */
  async agentRead(p: { path: string; line?: number | null; limit?: number | null }, who: Requester): Promise<string> {
    const t = await admitFile('read', p.path, this.boundary(who));
    const open = openDocument(t.real) ?? openDocument(p.path);
    return open ? sliceLines(open.getText(), p.line, p.limit) : readChecked(await recheckTarget(t), p.line, p.limit);
  }

  private boundary(who: Requester): FileBoundary {
    return { style: this.style, roots: () => this.roots(), judge: (access, t, why) => this.judge(access, t.requested, t.real, why, who) };
  }

  private roots(): Promise<string[]> {
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
    const grantKey = `${who.scope}\n${who.sessionId}`;
    const decision = decide(this.policy(), access, false);
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
   * and after, for the turn's Changes summary; null when the write changed nothing.
   */
  async agentWrite(path: string, content: string, who: Requester): Promise<AgentWrite | null> {
    const t = await admitFile('write', path, this.boundary(who));
    // Resolved again after any consent dialog, just before the edit: the path must still name the judged file.
    // The edit goes to the path as the agent named it, so it lands in the editor the user has open for it.
    await recheckTarget(t);
    const uri = vscode.Uri.file(path);
    const agentName = who.agentName;
    const exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
    const edit = new vscode.WorkspaceEdit();
    if (!exists) {
      edit.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode('') });
    }
    const current = exists ? await vscode.workspace.openTextDocument(uri) : undefined;
    // The editor writes the document's own line endings; LF content for a CRLF file is the same text.
    if (current && current.getText() === inFileEol(current.getText(), content)) {
      // Some agents (OpenCode) also write the file themselves, often first: an edit would change nothing and
      // leave nothing to undo, so say so in the log instead of pretending an undoable edit happened.
      if (current.isDirty && !(await current.save())) throw new Error(`could not save ${path}`);
      this.log.info(`fs/write_text_file: ${path} already has this content (the agent wrote it itself); no workspace edit`);
      await this.show(current);
      return null;
    }
    const previous = current ? current.getText() : null;
    const end = current ? current.lineAt(current.lineCount - 1).range.end : new vscode.Position(0, 0);
    edit.replace(uri, new vscode.Range(new vscode.Position(0, 0), end), content, {
      label: `${agentName} edited ${vscode.workspace.asRelativePath(uri)}`,
      needsConfirmation: false,
    });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${path}`);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!(await doc.save())) throw new Error(`could not save ${path}`);
    // VS Code opened the path itself: should the path have changed meanwhile, say so rather than report a clean write.
    const after = await inspectTarget(path);
    if (after.real !== t.real || (after.linked && !t.linked)) this.log.error(`fs/write_text_file: ${path} changed while VS Code wrote it (it now is ${after.real})`);
    if (this.follow.enabled()) await this.show(doc);
    this.log.info(`fs/write_text_file: ${path} (${content.length} chars) via a workspace edit`);
    // The document's text, not `content`: the editor keeps the file's line endings.
    return { previous, written: doc.getText() };
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
