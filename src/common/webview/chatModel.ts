/**
 * What a chat webview shows and whom it tells about the user's actions. Implemented by the chat
 * controller (live) and by opened captures; the VS Code webview (src/vscode/panel/chatWebview.ts) consumes it.
 * Kept here, below both, so controller code never imports the VS Code layer for a type.
 */
import type { PanelDelta } from './panelDeltas';
import type { PanelState, WebviewToHost } from './contract';
import type { Entry } from '../store/model';
import type { Event, IDisposable } from '../util/lifecycle';

export interface ChatModel {
  snapshot(): { entries: readonly Entry[]; panel: PanelState };
  readonly onDidChange: Event<readonly PanelDelta[]>;
  handleWebviewMessage(message: WebviewToHost): void;
  /**
   * A subagent under the session shown (any depth) as a model of its own, for its transcript expanded in
   * its card (subagentFeeds.ts; the caller disposes it when collapsed); undefined for any other session id.
   */
  subagentView?(childSessionId: string): ChildModel | undefined;
}

/** A subagent's transcript as a model, owned by whoever asked for it. */
export type ChildModel = ChatModel & IDisposable;
