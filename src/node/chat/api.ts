/**
 * What `activate()` returns: a small API for the extension-host tests (and for other extensions that
 * want to drive a chat). It adds no behaviour of its own: every call goes through the same paths as the UI.
 * It is written against `ApiHost`, the few calls it makes on the chat service, so it needs nothing of
 * VS Code; the extension names its own service type (`AcpChatApi` in src/vscode/extension.ts).
 */
import type { Entry, SessionState } from '../../common/store/model';
import type { PermissionView } from '../../common/webview/contract';
import type { ChatController } from './chatController';

/** A chat panel, as far as the API waits on it and measures it. */
interface ApiPanel {
  whenReady(): Promise<void>;
  readonly postedBytes: number;
}

/** What the API calls on the chat service. */
export interface ApiHost {
  openChat(): Promise<ApiPanel>;
  activePanel(): ApiPanel | undefined;
  ready(): Promise<void>;
  activeChat(): Promise<ChatController>;
  existingSession(): ChatController | undefined;
}

export interface ChatApi<S extends ApiHost = ApiHost> {
  /** Opens the chat panel (like ACP: Open Chat). */
  openChat(): Promise<void>;
  /** Resolves once the panel's webview has loaded and received its snapshot. */
  whenPanelReady(): Promise<void>;
  /** Sends a prompt as if typed in the panel; resolves when the turn (and any queued ones) finished. */
  sendPrompt(text: string): Promise<void>;
  /** The active session's transcript. */
  transcript(): readonly Entry[];
  /** Every session of the active agent's store. */
  sessions(): readonly SessionState[];
  pendingPermissions(): readonly PermissionView[];
  respondPermission(requestId: string, optionId: string | null): boolean;
  /** Bytes posted to the webview so far (for the host<->webview bench). */
  postedBytes(): number;
  readonly service: S;
}

export function createApi<S extends ApiHost>(service: S): ChatApi<S> {
  return {
    service,
    async openChat() {
      await service.openChat();
    },
    async whenPanelReady() {
      const panel = service.activePanel() ?? (await service.openChat());
      await panel.whenReady();
    },
    async sendPrompt(text) {
      await service.ready();
      const session = await service.activeChat();
      await session.start();
      session.prompt(text);
      await session.whenIdle();
    },
    // Reading never starts an agent: before the first chat these are empty.
    transcript: () => service.existingSession()?.entries() ?? [],
    sessions: () => service.existingSession()?.sessions() ?? [],
    pendingPermissions: () => service.existingSession()?.broker.pending() ?? [],
    respondPermission: (requestId, optionId) => service.existingSession()?.broker.respond(requestId, optionId) ?? false,
    postedBytes: () => service.activePanel()?.postedBytes ?? 0,
  };
}
