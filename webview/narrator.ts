/**
 * The panel's one live region. The transcript itself is not live (a live log re-announces content that
 * is replaced, re-rendered or built on scroll); instead this region says, once each: turn changes, new
 * permission requests, questions and notices, tool-call status changes, a terminal's exit, and an agent
 * message when it is finished (only the text not said before).
 */
import type { ViewEntry as Entry } from '../src/common/webview/viewEntry';
import type { ElicitationPrompt, PanelState, PermissionView, TurnEnd, TurnState } from '../src/common/webview/contract';
import { h } from './dom';
import { entryPlainText, spokenToolTitle, toolStatusLabel } from './entryModel';

type ToolCall = Extract<Entry, { kind: 'tool_call' }>;

const live = (t: TurnState): boolean => t === 'busy' || t === 'cancelling';

export class Narrator {
  readonly el = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-testid': 'announcer' });
  private queue: string[] = [];
  private queued = false;
  /** Flipped on every write so an identical sentence still changes the region (and is said again). */
  private toggle = false;
  /** The agent message being streamed now, said in full when it is finished. */
  private streamingKey: string | null = null;
  /** Text of each agent message already said (only what follows it is new). */
  private readonly said = new Map<string, string>();

  constructor(private readonly entry: (key: string) => Entry | undefined) {}

  /** Queues a sentence; sentences from one task are said together. */
  say(text: string): void {
    const t = text.trim();
    if (!t) return;
    this.queue.push(/[.!?…:]$/.test(t) ? t : `${t}.`);
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      const text = this.queue.join(' ');
      this.queue = [];
      this.toggle = !this.toggle;
      this.el.textContent = this.toggle ? text : `${text}\u00a0`;
    });
  }

  /** A snapshot replaces everything: nothing in it is new to say. */
  reset(): void {
    this.streamingKey = null;
    this.said.clear();
  }

  /** `end`: how the turn that just ended ended (the panel's `lastTurnEnd`, patched with the turn). */
  turn(prev: TurnState, next: TurnState, message: string | null, end: TurnEnd = null): void {
    if (prev === next) return;
    if (live(prev) && !live(next)) this.finishMessage();
    switch (next) {
      case 'busy':
        if (prev !== 'cancelling') this.say('Agent is working');
        return;
      case 'cancelling':
        return this.say('Cancelling');
      case 'idle':
        if (end === 'cancelled' || prev === 'cancelling') return this.say('Turn cancelled');
        return this.say(end === 'interrupted' ? 'Turn interrupted' : live(prev) ? 'Agent finished' : 'Agent ready');
      case 'exited':
        return this.say(message ?? 'The agent exited');
      case 'error':
        return this.say(message ?? 'The agent reported an error');
      case 'starting':
        return;
    }
  }

  permissions(prev: readonly PermissionView[], next: readonly PermissionView[]): void {
    const known = new Set(prev.map((p) => p.requestId));
    for (const p of next) {
      if (known.has(p.requestId)) continue;
      const keys = p.options.map((o, i) => `${i + 1} ${o.name}`).join(', ');
      const title = p.title || 'the agent asks for permission';
      this.say(`Permission requested: ${title}${/[.?!]$/.test(title) ? '' : '.'} ${keys}`);
    }
  }

  /** A new question: the card does not take the focus (the user may be typing), so it is said here. */
  questions(prev: readonly ElicitationPrompt[], next: readonly ElicitationPrompt[]): void {
    const known = new Set(prev.map((p) => p.requestId));
    for (const p of next) {
      if (known.has(p.requestId)) continue;
      const what = p.mode === 'url' ? 'It wants to open a page in your browser. ' : '';
      this.say(`The agent asks: ${p.message}${/[.?!]$/.test(p.message) ? '' : '.'} ${what}Answer in the question card`);
    }
  }

  notices(prev: PanelState['notices'], next: PanelState['notices']): void {
    const known = new Set(prev.map((n) => `${n.title}\n${n.description ?? ''}`));
    for (const n of next) if (!known.has(`${n.title}\n${n.description ?? ''}`)) this.say(n.description ? `${n.title}: ${n.description}` : n.title);
  }

  /** A new entry during a live turn (replays and snapshots are not news). */
  inserted(e: Entry, turn: TurnState): void {
    if (!live(turn) || e.provenance === 'replay') return;
    if (e.kind === 'user_message') return;
    this.finishMessage();
    if (e.kind === 'agent_message') {
      this.streamingKey = e.key;
      this.said.set(e.key, '');
    } else if (e.kind === 'tool_call') this.say(`${spokenToolTitle(e)}: ${toolStatusLabel(e.status)}`);
  }

  /** Text streamed into an agent message; a message that resumes after something else is said again from where it stopped. */
  appended(key: string, turn: TurnState): void {
    if (!live(turn) || key === this.streamingKey || this.entry(key)?.kind !== 'agent_message') return;
    this.finishMessage();
    this.streamingKey = key;
    if (!this.said.has(key)) this.said.set(key, this.plainText(key));
  }

  toolChanged(prev: ToolCall, next: ToolCall): void {
    if ((prev.status || 'pending') !== (next.status || 'pending')) this.say(`${spokenToolTitle(next)}: ${toolStatusLabel(next.status)}`);
  }

  terminalExited(tool: ToolCall | undefined, exitCode: number | null, signal: string | null): void {
    const what = tool ? `${spokenToolTitle(tool)}: terminal` : 'Terminal';
    this.say(exitCode !== null ? `${what} exited with code ${exitCode}` : `${what} ended${signal ? ` by ${signal}` : ''}`);
  }

  private plainText(key: string): string {
    const e = this.entry(key);
    return e ? entryPlainText(e) : '';
  }

  /** Says what the streaming message added since it was last said. */
  private finishMessage(): void {
    const key = this.streamingKey;
    this.streamingKey = null;
    if (!key) return;
    const e = this.entry(key);
    if (!e || e.kind !== 'agent_message') return;
    const text = entryPlainText(e);
    const before = this.said.get(key) ?? '';
    this.said.set(key, text);
    // A message rewritten (not continued) is said again in full.
    this.say(text.startsWith(before) ? text.slice(before.length) : text);
  }
}
