/**
 * `fs/read_text_file` and `fs/write_text_file` through VS Code, so an agent sees what the user sees:
 * reads return an open editor's unsaved text, and writes go through a WorkspaceEdit (undoable, shown in
 * the editor) and are then saved so tools that read the disk see them.
 *
 * The workspace boundary: an agent's read, write or terminal outside the workspace folders is judged by
 * its real path (`..` and symlinks resolved), and needs the user's consent unless
 * `acpChat.outsideWorkspace` says otherwise. "Allow for This Session" remembers the folder for that ACP
 * session; "Deny for This Session" refuses the rest of that session's requests of that kind.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import { decide, describeAccess, insideAny, SessionGrants, type Access, type OutsideWorkspacePolicy } from '../common/boundary';
import { sliceLines } from '../common/text';
import { noticeLines, noticeText } from '../common/untrusted';
import { boundaryRefusal, realPathOf, realRoots } from '../node/realPath';
import { inFileEol } from '../common/changes/eol';

/** Who asks: the agent's display name and the ACP session the request belongs to. */
export interface Requester {
  readonly agentName: string;
  readonly sessionId: string;
}

/** Asks the user (a modal warning by default; scripted in tests): resolves to the chosen button or undefined. */
export type Confirm = (message: string, detail: string, ...buttons: string[]) => Promise<string | undefined>;

const modalWarning: Confirm = (message, detail, ...buttons) => Promise.resolve(vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons));

/** A write the agent made through the client: the file's text before (null: it did not exist) and after. */
export interface AgentWrite {
  readonly previous: string | null;
  readonly written: string;
}

export class FileAccess {
  private readonly grants = new SessionGrants();

  /** `chatColumn`: where the chat panel is, so edited files never open over it. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly chatColumn: () => vscode.ViewColumn | undefined = () => undefined,
    private readonly policy: () => OutsideWorkspacePolicy = () => 'ask',
    private readonly confirm: Confirm = modalWarning,
  ) {}

  /** A file's text as the user sees it (an open editor's unsaved text wins). No boundary: for the user's own mentions. */
  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const uri = vscode.Uri.file(path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return sliceLines(text, line, limit);
  }

  /** `fs/read_text_file`: `read` behind the boundary. */
  async agentRead(p: { path: string; line?: number | null; limit?: number | null }, who: Requester): Promise<string> {
    await this.permit('read', p.path, who);
    return this.read(p.path, p.line, p.limit);
  }

  /** `terminal/create`'s working directory: allowed inside the workspace, else as the user says. */
  async checkTerminalCwd(cwd: string, who: Requester): Promise<void> {
    await this.permit('terminal', cwd, who);
  }

  /** Resolves `target` to its real path and lets the access through, asks the user, or throws a JSON-RPC error that says why. */
  async permit(access: Access, target: string, who: Requester): Promise<void> {
    if (!nodePath.isAbsolute(target)) throw boundaryRefusal(`path must be absolute: ${target}`, target, target);
    const real = await realPathOf(target);
    const roots = await realRoots((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
    const decision = decide(this.policy(), access, insideAny(roots, real));
    if (decision === 'allow' || this.grants.allows(who.sessionId, access, real)) return;
    const shown = real === nodePath.normalize(target) ? target : `${target} (really ${real})`;
    if (this.grants.denies(who.sessionId, access)) {
      this.log.warn(`refused ${access} outside the workspace: ${shown} (denied for this session)`);
      throw boundaryRefusal(`refused: ${real} is outside the workspace and the user denied this for the session`, target, real);
    }
    if (decision === 'deny') {
      this.log.warn(`refused ${access} outside the workspace: ${shown} (acpChat.outsideWorkspace is "deny")`);
      throw boundaryRefusal(`refused: ${real} is outside the workspace and acpChat.outsideWorkspace is "deny"`, target, real);
    }
    // A terminal grant covers its directory; a file grant the file's folder.
    const folder = access === 'terminal' ? real : nodePath.dirname(real);
    const once = 'Allow Once';
    const session = 'Allow for This Session';
    const never = 'Deny for This Session';
    const answer = await this.confirm(
      `${noticeText(who.agentName)} wants to ${describeAccess(access)} outside the workspace`,
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
    if (answer === session) this.grants.grant(who.sessionId, access, folder);
    if (answer === never) this.grants.deny(who.sessionId, access);
    if (answer !== once && answer !== session) {
      this.log.warn(`the user refused ${access} outside the workspace: ${shown}`);
      const what = { read: 'reading', write: 'writing', terminal: 'a terminal in' }[access];
      throw boundaryRefusal(`the user did not allow ${what} ${real} (outside the workspace)`, target, real);
    }
    this.log.info(`the user allowed ${access} outside the workspace${answer === session ? ' for this session' : ' once'}: ${shown}`);
  }

  /** Whether a path is inside the workspace folders, by real path (as the boundary judges it). */
  async insideWorkspace(path: string): Promise<boolean> {
    if (!nodePath.isAbsolute(path)) return false;
    const roots = await realRoots((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
    return insideAny(roots, await realPathOf(path));
  }

  /**
   * `fs/write_text_file`, behind the boundary. Returns what the file held before (null: it did not exist)
   * and after, for the turn's Changes summary; null when the write changed nothing.
   */
  async agentWrite(path: string, content: string, who: Requester): Promise<AgentWrite | null> {
    await this.permit('write', path, who);
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
    await this.show(doc);
    this.log.info(`fs/write_text_file: ${path} (${content.length} chars) via a workspace edit`);
    // The document's text, not `content`: the editor keeps the file's line endings.
    return { previous, written: doc.getText() };
  }

  /**
   * Follow the agent: show the edited file (without taking focus from the chat), so the change is visible
   * and can be undone right there — in another editor group than the chat's, never over it.
   */
  private async show(doc: vscode.TextDocument): Promise<void> {
    const chat = this.chatColumn();
    const column = chat === undefined || chat !== vscode.ViewColumn.One ? vscode.ViewColumn.One : vscode.ViewColumn.Two;
    await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: true, preview: true });
  }
}
