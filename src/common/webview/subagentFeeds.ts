/**
 * The subagent transcripts one webview has expanded in their cards, each fed to it on its own: the child's
 * snapshot when it is expanded, then small patches of that child's entries only (a PanelFeed of its own,
 * with handles of its own), each post wrapped as a `subagent` message; nothing once it is collapsed. A
 * collapsed child has no feed and no listener here, so its streamed chunks cost the webview nothing.
 * Which children are expanded is the webview's view state (`expandSubagents`, always the whole set): this
 * only follows it. The host side of ChatWebview and the benches run it; pure and clock-injected like
 * PanelFeed: the caller runs `frame()` once per frame while `pending`.
 */
import type { Entry } from '../store/model';
import type { IDisposable } from '../util/lifecycle';
import type { ChatModel, ChildModel } from './chatModel';
import type { HostToWebview } from './contract';
import { PanelFeed } from './panelFeed';

interface Fed {
  readonly model: ChildModel;
  readonly feed: PanelFeed;
  readonly listening: IDisposable;
}

export class SubagentFeeds implements IDisposable {
  private readonly fed = new Map<string, Fed>();

  constructor(
    private readonly post: (message: HostToWebview) => void,
    /** A fed child changed: the caller runs frames until nothing is pending. */
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The webview's expanded set: a feed for each child listed that `source` can show, none for any other. */
  expand(childSessionIds: readonly string[], source: Pick<ChatModel, 'subagentView'>): void {
    const wanted = new Set(childSessionIds);
    for (const id of [...this.fed.keys()]) if (!wanted.has(id)) this.close(id);
    for (const id of wanted) if (!this.fed.has(id)) this.open(id, source);
  }

  /** The children fed now. */
  get expanded(): readonly string[] {
    return [...this.fed.keys()];
  }

  get pending(): boolean {
    for (const f of this.fed.values()) if (f.feed.pending) return true;
    return false;
  }

  /** Once per frame: each feed posts when its batch is worth a post. Returns `pending`. */
  frame(): boolean {
    let pending = false;
    for (const f of this.fed.values()) pending = f.feed.frame() || pending;
    return pending;
  }

  /** Posts what every feed has pending now, worth it or not (the end of a bench's stream, tests). */
  flush(): void {
    for (const f of this.fed.values()) f.feed.flush();
  }

  /** An entry of a fed child's transcript, by key (a nested tool call's raw input, say). */
  entry(key: string): Entry | undefined {
    for (const f of this.fed.values()) {
      const e = f.model.snapshot().entries.find((x) => x.key === key);
      if (e) return e;
    }
    return undefined;
  }

  /** Stops every feed: the webview got a fresh snapshot (it sends its expanded set again), went away, or shows another chat. */
  clear(): void {
    for (const id of [...this.fed.keys()]) this.close(id);
  }

  dispose(): void {
    this.clear();
  }

  private open(id: string, source: Pick<ChatModel, 'subagentView'>): void {
    const model = source.subagentView?.(id);
    if (!model) return; // not a subagent of what this webview shows (or a host that cannot): nothing to feed
    const feed = new PanelFeed((message) => this.post({ type: 'subagent', childSessionId: id, message }), this.now);
    const snapshot = () => {
      const s = model.snapshot();
      feed.snapshot(s.entries, s.panel);
    };
    const listening = model.onDidChange((changes) => {
      if (!feed.changed(changes)) snapshot();
      else if (feed.pending) this.changed();
    });
    this.fed.set(id, { model, feed, listening });
    snapshot();
  }

  private close(id: string): void {
    const f = this.fed.get(id);
    if (!f) return;
    this.fed.delete(id);
    f.listening.dispose();
    f.model.dispose();
  }
}
