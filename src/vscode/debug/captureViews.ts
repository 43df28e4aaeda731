/**
 * ACP: Open Capture — a recorded `.jsonl` replayed into a read-only chat tab. While its tab is active
 * the ACP Messages tree shows the capture; when it closes the tree goes back to the focused chat.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../common/util/lifecycle';
import { ChatPanel, CHAT_VIEW_TYPE } from '../panel/chatPanel';
import { CaptureChat } from '../../node/capture/captureChat';
import type { MessageTreeProvider } from './messageTree';
import { createChatUi } from '../panel/chatUi';
import type { VirtualDocuments } from '../workspace/virtualDocuments';

export class CaptureViews extends Disposable {
  /** Read-only panels of opened captures; each disposes its capture when closed. */
  private readonly panels = new Set<ChatPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly docs: VirtualDocuments,
    private readonly tree: MessageTreeProvider,
    private readonly capturesDir: () => string,
    private readonly revealInTree: (sessionId: string, key: string) => void,
    /** Gives the tree back to the focused chat. */
    private readonly restoreTree: () => void,
  ) {
    super();
    this.register({ dispose: () => [...this.panels].forEach((p) => p.dispose()) });
  }

  async open(file?: string, mode?: 'full' | 'realtime'): Promise<{ capture: CaptureChat; panel: ChatPanel } | undefined> {
    const uri = file
      ? vscode.Uri.file(file)
      : (
          await vscode.window.showOpenDialog({
            title: 'ACP: Open Capture',
            canSelectMany: false,
            filters: { 'ACP capture': ['jsonl', 'ndjson'] },
            defaultUri: vscode.Uri.file(this.capturesDir()),
          })
        )?.[0];
    if (!uri) return undefined;
    const pace =
      mode ??
      (
        await vscode.window.showQuickPick(
          [
            { label: 'Full speed', description: 'apply every message at once', mode: 'full' as const },
            { label: 'Real time', description: 'replay at the pace it was recorded', mode: 'realtime' as const },
          ],
          { title: 'Replay the capture' },
        )
      )?.mode;
    if (!pace) return undefined;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const name = uri.path.split('/').pop() ?? 'capture';
    let capturePanel: vscode.WebviewPanel | undefined;
    const ui = createChatUi({
      docs: this.docs,
      log: this.log,
      revealInTree: (sid, key) => this.revealInTree(sid, key),
      isPanelVisible: () => true,
      showPanel: () => undefined,
      chatColumn: () => capturePanel?.viewColumn,
      extensionUri: this.extensionUri,
    });
    const capture = new CaptureChat(name, text, ui);
    const webviewPanel = (capturePanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE + '.capture', `Capture · ${name}`, vscode.ViewColumn.Active, { enableScripts: true }));
    const panel = new ChatPanel(webviewPanel, this.extensionUri, capture, this.log);
    this.tree.show(capture);
    panel.own(webviewPanel.onDidChangeViewState((e) => e.webviewPanel.active && this.tree.show(capture)));
    this.panels.add(panel);
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      if (this.tree.shown === capture) this.restoreTree();
      capture.dispose();
    });
    if (pace === 'full') capture.playAll();
    else capture.playRealTime();
    return { capture, panel };
  }
}
