/**
 * A chat another window has, opened read-only here: a copy of its saved store as it was when opened
 * (the other window keeps writing the chat; this copy does not follow it), shown by a read-only panel.
 * No agent, no prompt: only navigation and copying do anything.
 */
import type { MessageStore } from '../../common/store';
import type { Entry } from '../../common/store/model';
import { sessionPanelFields, type PanelState, type WebviewToHost } from '../../common/webview/contract';
import { EMPTY_PANEL } from '../../common/webview/emptyPanel';
import { Emitter } from '../../common/util/lifecycle';
import type { ChatModel } from '../../common/webview/chatModel';
import type { PanelDelta } from '../../common/webview/panelDeltas';
import type { ChatUi } from './chatPorts';

export class SavedChatView implements ChatModel {
  private readonly changes = new Emitter<readonly PanelDelta[]>();
  readonly onDidChange = this.changes.event;
  private readonly sessionId: string | null;

  constructor(
    private readonly store: MessageStore,
    private readonly title: string,
    private readonly ui: Pick<ChatUi, 'openLink' | 'openLocation' | 'copy'>,
  ) {
    this.sessionId = store.attachedSessionId() ?? store.sessions().at(-1)?.sessionId ?? null;
  }

  snapshot(): { entries: readonly Entry[]; panel: PanelState } {
    const s = this.sessionId === null ? undefined : this.store.session(this.sessionId);
    return {
      entries: s?.entries ?? [],
      panel: {
        ...EMPTY_PANEL,
        agentName: 'Open in another window · read-only',
        sessionId: this.sessionId,
        turn: 'idle',
        readOnly: true,
        canFork: false,
        ...sessionPanelFields(s),
        title: this.title,
        notices: this.store.notices(this.sessionId),
      },
    };
  }

  handleWebviewMessage(m: WebviewToHost): void {
    if (m.type === 'openLink') this.ui.openLink(m.href);
    else if (m.type === 'openLocation') this.ui.openLocation(m.path, m.line);
    else if (m.type === 'copy') this.ui.copy(m.text);
  }
}
