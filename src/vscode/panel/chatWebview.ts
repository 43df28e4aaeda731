/**
 * The chat webview: shows one chat in an editor tab (ChatPanel) or the side bar view. It speaks only the contract in
 * src/common/webview/contract.ts: it waits for the webview's `ready`, answers with a snapshot, then
 * forwards the chat's changes as patches through its PanelFeed, at most one post per frame (~16 ms).
 *
 * A webview that is hidden and shown again, or restored after VS Code restarts, sends `ready` again and
 * gets a fresh snapshot, so nothing is lost.
 */
import type { PanelDelta } from '../../common/webview/panelDeltas';
import * as vscode from 'vscode';
import { type HostToWebview, WEBVIEW_PROTOCOL_VERSION, zWebviewToHost } from '../../common/webview/contract';
import { setChatPage, takeEarlyPage } from './chatPage';
import { PanelFeed } from '../../common/webview/panelFeed';
import { SubagentFeeds } from '../../common/webview/subagentFeeds';
import { rawOf } from '../../common/webview/viewEntry';
import { Disposable, Emitter, type IDisposable } from '../../common/util/lifecycle';
import { errorText } from '../../common/util/errors';
import type { ChatModel } from '../../common/webview/chatModel';

export type { ChatModel } from '../../common/webview/chatModel';

/** Posting more often than this gains nothing (one display frame) and costs serialization per chunk. */
const FRAME_MS = 16;

/** Where a chat webview lives: an editor tab's WebviewPanel or the side bar's WebviewView. */
export interface WebviewSurface {
  readonly webview: vscode.Webview;
  readonly visible: boolean;
  /** Fires when the surface is shown or hidden (a hidden webview is destroyed and says `ready` again when shown). */
  readonly onDidChangeVisibility: vscode.Event<unknown>;
  readonly onDidDispose: vscode.Event<void>;
  /** Closes the surface (a tab closes; a view cannot be closed by us and only stops showing the chat). */
  close(): void;
}

let shown: (() => void) | undefined;
const shownOnce = new Promise<void>((resolve) => (shown = resolve));
/**
 * Settles when a chat webview of this window first got its snapshot: the host's part of the window's first
 * chat paint is done (what may wait behind it: recoverChats.ts).
 */
export const firstChatShown = (): Promise<void> => shownOnce;

export class ChatWebview extends Disposable {
  private ready = false;
  /** The model's changes, batched into posts (the shipped pipeline: panelFeed.ts). */
  private readonly feed = new PanelFeed((m) => this.post(m));
  /** The subagents the webview expanded in their cards, each fed on its own (collapsed ones: nothing). */
  private readonly subagents = this.register(
    new SubagentFeeds(
      (m) => this.post(m),
      () => this.scheduleFlush(),
    ),
  );
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private modelSubscription: IDisposable | undefined;
  private readonly onDidDisposeEmitter = new Emitter<void>();
  readonly onDidDispose = this.onDidDisposeEmitter.event;
  /** Resolves on every `ready` (tests wait for the first one). */
  private readyWaiters: (() => void)[] = [];
  /** Every message posted to the webview, counted for the bench and the debug bundle. */
  postedBytes = 0;
  /** How many times the webview said `ready` (each got a snapshot). */
  readyCount = 0;
  private readonly interacted = new Emitter<void>();
  /** The user did something in this webview (typed, clicked, answered): it is the focused chat now. */
  readonly onDidInteract = this.interacted.event;

  constructor(
    readonly surface: WebviewSurface,
    private readonly extensionUri: vscode.Uri,
    private model: ChatModel,
    private readonly log: vscode.LogOutputChannel,
    /** Workspace files for `@` completion (relative paths); none for read-only panels. */
    private readonly findFiles: (query: string) => Promise<string[]> = async () => [],
    /** The chat's id, kept in the webview's saved state so a reload restores this tab with its own chat. */
    readonly chatId?: string,
  ) {
    super();
    const webview = surface.webview;
    // A tab's page may be set already (chatPage.ts), painting while this chat was built: what it said meanwhile is handled below.
    const early = takeEarlyPage(webview, chatId);
    if (early === undefined) setChatPage(webview, extensionUri, chatId);
    this.register(this.interacted);
    this.register(webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)));
    // A hidden webview is destroyed (no retainContextWhenHidden: a long transcript would keep its memory);
    // post nothing until it is shown again and says `ready`, then send a fresh snapshot.
    this.register(
      surface.onDidChangeVisibility(() => {
        if (!surface.visible) {
          this.ready = false;
          clearTimeout(this.flushTimer);
          this.flushTimer = undefined;
          this.feed.drop();
          this.subagents.clear();
        }
      }),
    );
    this.register(surface.onDidDispose(() => this.dispose()));
    this.attach(model);
    for (const message of early ?? []) this.onMessage(message);
  }

  /** Ties a resource's lifetime to this webview's (its tab's view-state listener). */
  own<T extends IDisposable>(resource: T): T {
    return this.register(resource);
  }

  get disposed(): boolean {
    return this.isDisposed;
  }

  /** The chat model shown (a live chat session or a capture). */
  get shown(): ChatModel {
    return this.model;
  }

  /** Show another chat in this webview. */
  attach(model: ChatModel): void {
    this.modelSubscription?.dispose();
    this.subagents.clear();
    this.model = model;
    this.modelSubscription = model.onDidChange((changes) => this.onModelChanged(changes));
    if (this.ready) this.sendSnapshot();
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  post(message: HostToWebview): void {
    if (!this.ready) return; // the snapshot sent on `ready` will carry it
    const text = JSON.stringify(message);
    this.postedBytes += text.length;
    void this.surface.webview.postMessage(message);
  }

  /** `keepTab`: the window is closing, and its layout keeps the tab to restore it. */
  override dispose(options?: { readonly keepTab?: boolean }): void {
    if (this.isDisposed) return;
    clearTimeout(this.flushTimer);
    this.modelSubscription?.dispose();
    super.dispose();
    if (!options?.keepTab) this.surface.close();
    this.onDidDisposeEmitter.fire();
    this.onDidDisposeEmitter.dispose();
  }

  private onMessage(raw: unknown): void {
    const parsed = zWebviewToHost.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`chat panel: ignored a malformed message from the webview: ${parsed.error.message}`);
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      if (message.protocol !== WEBVIEW_PROTOCOL_VERSION) {
        // A webview restored from an older extension version: reload it with the current bundle.
        this.log.info(`chat panel: webview protocol ${message.protocol} != ${WEBVIEW_PROTOCOL_VERSION}; reloading it`);
        setChatPage(this.surface.webview, this.extensionUri, this.chatId);
        return;
      }
      this.ready = true;
      this.readyCount++;
      this.sendSnapshot();
      shown?.();
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      return;
    }
    if (message.type === 'mentionQuery') {
      // A view concern, not session state: answered here, straight back to this webview.
      const query = message.query;
      this.findFiles(query).then(
        (paths) => this.post({ type: 'mentionResults', query, paths }),
        (e: unknown) => this.log.warn(`@ completion failed: ${errorText(e)}`),
      );
      return;
    }
    if (message.type === 'expandSubagents') {
      // View state of this webview alone: another tab of the same chat expands its own.
      this.subagents.expand(message.childSessionIds, this.model);
      return this.scheduleFlush();
    }
    if (message.type === 'getRaw') {
      // The raw JSON the webview leaves on the host until the user opens a tool call's raw toggle.
      const entry = this.model.snapshot().entries.find((e) => e.key === message.key) ?? this.subagents.entry(message.key);
      this.post({ type: 'raw', key: message.key, raw: rawOf(entry) });
      return;
    }
    this.interacted.fire();
    this.model.handleWebviewMessage(message);
  }

  private sendSnapshot(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const { entries, panel } = this.model.snapshot();
    // The snapshot includes everything pending, and the entries' handles start again from it. The
    // webview rebuilds its cards and sends the subagents it keeps expanded again.
    this.subagents.clear();
    this.feed.snapshot(entries, panel);
  }

  private onModelChanged(changes: readonly PanelDelta[]): void {
    if (!this.ready) return; // the webview will ask for a snapshot when it is ready
    if (!this.feed.changed(changes)) return this.sendSnapshot();
    if (this.feed.pending) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.ready && this.flushTimer === undefined) this.flushTimer = setTimeout(() => this.flush(), FRAME_MS);
  }

  /** Runs once per frame while changes are pending; posts when the batch is worth it (see PatchBatcher). */
  private flush(): void {
    this.flushTimer = undefined;
    // Both feeds' frames run (no short-circuit): the chat's and its expanded subagents'.
    const pending = [this.feed.frame(), this.subagents.frame()];
    if (pending.includes(true)) this.scheduleFlush();
  }
}
