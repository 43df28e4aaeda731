/**
 * The prompt box: multi-line textarea (Enter sends, Shift+Enter newline, Esc cancels a busy turn; while a
 * turn runs on an agent that supports steering, Alt+Enter steers the prompt into that turn, with a hint),
 * slash-command and `@` completion (promptCompletion.ts), Send and Cancel buttons. A prompt sent
 * while the agent is busy is still posted: the host queues it and reports it back in `queuedPrompts`.
 */
import type { AvailableCommand } from '../src/common/store/model';
import type { TurnState, WebviewToHost } from '../src/common/webview/contract';
import { MAX_IMAGES } from '../src/common/webview/limits';
import { promptImages, readPastedImages, renderImageRow, type PromptImage } from './promptImages';
import { button, h, icon } from './dom';
import { PromptCompletion } from './promptCompletion';
import type { ContextChip } from '../src/common/context';
import { acceptDrops, addContextButton, CHIP_ICONS } from './contextControls';
import { PROMPT_PLACEHOLDER } from '../src/common/webview/html';

export class PromptBox {
  readonly el: HTMLElement;
  // A combobox (ARIA 1.2) whose popup is the command/file list: screen readers follow aria-activedescendant.
  readonly textarea = h('textarea', {
    'aria-label': 'Prompt',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-haspopup': 'listbox',
    'aria-controls': 'slash-list',
    'aria-expanded': 'false',
    'aria-keyshortcuts': 'Control+L',
    rows: 1,
    spellcheck: true,
  });
  private readonly send = button('Send', 'send', { class: 'primary send' });
  private readonly cancel = button('Cancel', 'debug-stop', { class: 'cancel' });
  private readonly completion = new PromptCompletion(
    this.textarea,
    (m) => this.post(m),
    () => this.readOnly,
    () => {
      this.onDraft(this.textarea.value);
      this.updateButtons();
    },
  );
  /** Images pasted into the prompt, sent with it (the host drops them for agents that take no images). */
  private images: PromptImage[] = [];
  private readonly imageRow = h('div', { class: 'prompt-images', 'aria-label': 'Pasted images' });
  /** Editor context the host holds for the next prompt ("Add Selection/File/Problems to Chat"). */
  private context: readonly ContextChip[] = [];
  private readonly contextRow = h('div', { class: 'prompt-context', role: 'list', 'aria-label': 'Context for the next message' });
  private turn: TurnState = 'starting';
  private readOnly = false;
  /** The agent takes prompts into a running turn (`_session/steering`): Alt+Enter steers, Enter queues. */
  private canSteer = false;
  private readonly hint = h('div', { class: 'prompt-hint', id: 'prompt-hint', 'aria-live': 'polite' });
  /** The user message being edited (Edit and Rerun): sending makes a branch at it. */
  private editing: string | null = null;
  /** The draft the box held when the edit began (its chips are set aside by the host): back when the edit ends. */
  private saved: { readonly text: string; readonly images: PromptBox['images'] } | null = null;
  private readonly editBar = h('div', { class: 'prompt-editing', role: 'status' });

  constructor(
    private readonly post: (m: WebviewToHost) => void,
    private readonly onDraft: (draft: string) => void,
  ) {
    this.imageRow.hidden = true;
    this.contextRow.hidden = true;
    this.textarea.addEventListener('paste', (e) => this.onPaste(e));
    this.hint.hidden = true;
    this.textarea.setAttribute('aria-describedby', 'prompt-hint');
    this.editBar.hidden = true;
    this.el = h(
      'div',
      { class: 'prompt' },
      this.completion.list,
      this.editBar,
      this.contextRow,
      this.imageRow,
      this.hint,
      h('div', { class: 'prompt-row' }, this.textarea, h('div', { class: 'prompt-buttons' }, addContextButton(post), this.cancel, this.send)),
    );
    acceptDrops(this.el, post);
    this.textarea.addEventListener('keydown', (e) => this.onKey(e));
    this.textarea.addEventListener('input', () => {
      this.autosize();
      this.completion.update();
      this.onDraft(this.textarea.value);
      this.updateButtons();
    });
    // Late, so a click on a completion item lands first; and only if the focus did not come back meanwhile
    // (a list opened by typing after a quick blur and refocus must not be closed by the stale timer).
    this.textarea.addEventListener('blur', () => setTimeout(() => document.activeElement !== this.textarea && this.completion.close(), 150));
    this.send.addEventListener('click', () => this.submit());
    this.cancel.addEventListener('click', () => this.post({ type: 'cancel' }));
    this.updateButtons();
  }

  get busy(): boolean {
    return this.turn === 'busy' || this.turn === 'cancelling';
  }

  setDraft(text: string): void {
    this.textarea.value = text;
    this.autosize();
    this.updateButtons();
  }

  setState(turn: TurnState, readOnly: boolean, commands: readonly AvailableCommand[], canSteer = false): void {
    this.turn = turn;
    this.readOnly = readOnly;
    this.canSteer = canSteer;
    this.textarea.disabled = readOnly;
    this.textarea.placeholder = readOnly ? 'This session is read-only' : this.busy ? 'The agent is working — a message sent now is queued' : PROMPT_PLACEHOLDER;
    const steerable = this.steerable();
    this.hint.hidden = !steerable;
    this.hint.textContent = steerable ? 'Enter queues for after this turn · Alt+Enter steers it into the running turn' : '';
    this.textarea.setAttribute('aria-keyshortcuts', steerable ? 'Control+L Alt+Enter' : 'Control+L');
    this.updateButtons();
    this.completion.setCommands(commands);
  }

  focus(): void {
    this.textarea.focus();
  }

  private updateButtons(): void {
    const active = document.activeElement;
    this.send.disabled = this.readOnly || (this.textarea.value.trim() === '' && this.images.length === 0 && this.context.length === 0);
    this.cancel.disabled = this.turn !== 'busy';
    this.cancel.hidden = !this.busy;
    // A button that just went away (Cancel after the turn ended, Send after sending) hands focus to the prompt box.
    if ((active === this.cancel && (this.cancel.disabled || this.cancel.hidden)) || (active === this.send && this.send.disabled)) this.textarea.focus();
  }

  /** A prompt sent now could be steered into the running turn. */
  private steerable(): boolean {
    return this.canSteer && this.turn === 'busy' && !this.readOnly;
  }

  private submit(steer = false): void {
    const text = this.textarea.value;
    if (this.readOnly || (text.trim() === '' && this.images.length === 0 && this.context.length === 0)) return;
    const images = this.images.map(({ mimeType, data }) => ({ mimeType, data }));
    const branch = this.editing !== null ? { branchFrom: this.editing } : steer && this.steerable() ? { steer: true } : {};
    this.post({ type: 'prompt', text, ...(images.length ? { images } : {}), ...branch });
    this.images = [];
    this.renderImages();
    this.textarea.value = '';
    this.autosize();
    this.completion.close();
    this.onDraft('');
    // A sent edit gives the box back the draft it held before (the host does the same for the chips).
    this.endEdit(false);
    this.updateButtons();
  }

  /** Opens an earlier user message for editing: its text and images replace the draft; Send makes a branch. */
  beginEdit(key: string, text: string, images: readonly { readonly mimeType: string; readonly data: string }[]): void {
    // Editing another message while one is open keeps the draft from before the first.
    if (this.editing === null) this.saved = { text: this.textarea.value, images: this.images };
    this.editing = key;
    const cancel = button('Cancel edit', 'close', { class: 'icon-button cancel-edit' });
    cancel.addEventListener('click', () => this.endEdit(true));
    this.editBar.replaceChildren(icon('edit'), h('span', {}, 'Editing an earlier message: sending starts a new branch (this chat stays as it is). Esc cancels.'), cancel);
    this.editBar.hidden = false;
    this.fill(text, promptImages(images));
  }

  /** Restore in place: the restored message is the draft again (sent here as a new turn), above any draft the box held. */
  restoreDraft(text: string, images: readonly { readonly mimeType: string; readonly data: string }[]): void {
    if (this.editing !== null) this.endEdit(true);
    const held = this.textarea.value.trim() === '' ? '' : `\n\n${this.textarea.value}`;
    this.fill(text + held, [...promptImages(images), ...this.images].slice(0, MAX_IMAGES));
  }

  private fill(text: string, images: PromptImage[]): void {
    this.images = images;
    this.renderImages();
    this.setDraft(text);
    this.onDraft(text);
    this.focus();
  }

  /**
   * Leaves edit mode: the draft from before the edit is back in the box (text and images). `cancelled`:
   * the host is told, so it gives back the chips too (a sent edit tells it by being sent).
   */
  private endEdit(cancelled: boolean): void {
    if (this.editing === null) return;
    this.editing = null;
    this.editBar.hidden = true;
    this.editBar.replaceChildren();
    const saved = this.saved ?? { text: '', images: [] };
    this.saved = null;
    this.images = saved.images;
    this.renderImages();
    this.setDraft(saved.text);
    this.onDraft(saved.text);
    if (cancelled) {
      this.post({ type: 'cancelEdit' });
      this.focus();
    }
  }

  /** The host's context chips (a panel field): re-rendered only when they changed. */
  setContext(chips: readonly ContextChip[]): void {
    if (chips === this.context || JSON.stringify(chips) === JSON.stringify(this.context)) return;
    const hadFocus = this.contextRow.contains(document.activeElement);
    this.context = chips;
    this.contextRow.hidden = chips.length === 0;
    this.contextRow.replaceChildren(
      ...chips.map((c) => {
        const remove = button(`Remove ${c.label}`, 'close', { class: 'icon-button remove-context', 'data-context-id': c.id });
        remove.addEventListener('click', () => this.post({ type: 'removeContext', id: c.id }));
        const size = c.size ? h('span', { class: 'size' }, c.size) : null;
        return h(
          'span',
          { class: 'context-chip', role: 'listitem', title: c.detail, 'data-kind': c.kind },
          icon(CHIP_ICONS[c.kind] ?? 'file'),
          h('span', { class: 'label' }, c.label),
          size,
          remove,
        );
      }),
    );
    // A removed chip's button is gone: keep keyboard focus in the prompt box rather than losing it to <body>.
    if (hadFocus && !this.contextRow.contains(document.activeElement)) this.textarea.focus();
    this.updateButtons();
  }

  private onPaste(e: ClipboardEvent): void {
    if (this.readOnly) return;
    const took = readPastedImages(
      e,
      () => this.images.length < MAX_IMAGES,
      (img) => {
        this.images.push(img);
        this.renderImages();
        this.updateButtons();
      },
    );
    if (took) e.preventDefault();
  }

  private renderImages(): void {
    renderImageRow(this.imageRow, this.images, (i) => {
      this.images.splice(i, 1);
      this.renderImages();
      this.updateButtons();
    });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.isComposing || this.completion.key(e)) return;
    if (e.key === 'Escape' && this.editing !== null) {
      e.preventDefault();
      this.endEdit(true);
    } else if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      this.submit();
    } else if (e.key === 'Enter' && e.altKey && !e.shiftKey && this.steerable()) {
      e.preventDefault();
      this.submit(true);
    }
    // Escape otherwise: the document handler decides (reject a permission, or cancel a busy turn).
  }

  /** Answers for the `@` query posted earlier (the host's `mentionResults`). */
  setMentionResults(query: string, paths: readonly string[]): void {
    this.completion.setMentionResults(query, paths);
  }

  /** Grows with its content up to a third of the panel, then scrolls. */
  private autosize(): void {
    this.textarea.style.height = 'auto';
    // A third of the view at most, so a short view (a side bar) keeps its conversation.
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight + 2, window.innerHeight / 3)}px`;
  }
}
