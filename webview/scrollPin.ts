/**
 * Keeps the conversation at its bottom while the user follows the stream, and leaves it where it is once
 * they scrolled up.
 *
 * Scrolling to the bottom after each drawn frame meant reading `scrollHeight` right after changing the
 * DOM: a synchronous layout of the growing message in every frame (most of the streaming cost). Instead a
 * ResizeObserver on the content (and on the scroller, for the prompt box growing or the panel resizing)
 * scrolls once the browser has laid the frame out anyway, before it paints: no forced layout, no frame
 * drawn off the bottom. Whatever grows the content (streamed text, new entries, entries built as they
 * come near, a Changes summary) keeps the view pinned without having to say so.
 */

/** Within this distance of the bottom the view counts as "following" the stream. */
const PIN_SLACK = 48;

export class ScrollPin {
  private pinned = true;
  /** scrollTop at the last scroll event: only a move up can mean the user stopped following. */
  private lastTop = 0;
  /** scrollHeight when the view was last put at the bottom: growth since then is not the user's move. */
  private bottomHeight = 0;
  private readonly resize = new ResizeObserver(() => {
    if (this.pinned) this.toBottom();
  });

  /** Called when the view starts (true: the user scrolled back, or a jump) or stops (false) following the bottom. */
  onChange: (pinned: boolean) => void = () => {};

  constructor(
    private readonly scroller: HTMLElement,
    content: HTMLElement,
  ) {
    scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.resize.observe(content);
    this.resize.observe(scroller);
  }

  get isPinned(): boolean {
    return this.pinned;
  }

  /** Follows the bottom again and goes there now (a new snapshot). */
  pin(): void {
    this.follow(true);
    this.toBottom();
  }

  /**
   * Stops following (the view was moved to an entry on purpose), unless that left it at the bottom: in a chat
   * that fits whole (a chat opened at a search match) there is nothing below to jump to.
   */
  unpin(): void {
    const height = this.scroller.scrollHeight;
    const atBottom = height - this.scroller.scrollTop - this.scroller.clientHeight < PIN_SLACK;
    if (atBottom) this.bottomHeight = height;
    this.follow(atBottom);
  }

  private toBottom(): void {
    // Read where the layout is already done (the ResizeObserver runs after layout), or once per snapshot.
    this.bottomHeight = this.scroller.scrollHeight;
    this.scroller.scrollTop = this.bottomHeight;
  }

  private onScroll(): void {
    const top = this.scroller.scrollTop;
    const movedUp = top < this.lastTop;
    this.lastTop = top;
    // Our own scroll to the bottom (content may have grown again since), or the user going further down:
    // still following, and no layout read needed.
    if (this.pinned && !movedUp) return;
    // A move up while following may be the browser's: the panel grew taller (the footer shrank) and clamped
    // scrollTop, while content added since the last pin (its resize not seen yet) makes the gap look large.
    // Growth since the view was last at the bottom does not count as the user leaving it.
    const height = this.scroller.scrollHeight;
    const grown = this.pinned ? Math.max(0, height - this.bottomHeight) : 0;
    const pinned = height - top - this.scroller.clientHeight < PIN_SLACK + grown;
    if (pinned) this.bottomHeight = height;
    this.follow(pinned);
  }

  private follow(pinned: boolean): void {
    const was = this.pinned;
    this.pinned = pinned;
    if (pinned !== was) this.onChange(pinned);
  }
}
