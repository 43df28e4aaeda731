/**
 * The chat header's context meter (the words and levels: src/common/webview/contextMeter.ts): a bar and
 * "48k / 200k (24%) · 0.42 USD", a `role=meter` whose value text says it in words, a warning icon from 80 %
 * (nearly full from 95 %), and a Compact button when the agent offers `/compact` (or its equivalent): it
 * sends that command as a prompt, as if the user typed it.
 */
import type { Usage } from '../src/common/store/model';
import type { WebviewToHost } from '../src/common/webview/contract';
import { fillOf, meterLevel, meterText } from '../src/common/webview/contextMeter';
import { button, h, icon } from './dom';
import { formatUsage } from './entryModel';

/** `command`: the agent's compacting command (`compactCommand`), null when it offers none or the chat is read-only. */
export function contextMeter(u: Usage | null, command: string | null, post: (m: WebviewToHost) => void): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (u) {
    const level = meterLevel(u);
    const text = meterText(u);
    const fill = h('span', { class: `usage-fill ${level}` });
    fill.style.width = `${fillOf(u) * 100}%`;
    out.push(
      h(
        'span',
        {
          class: `usage ${level}`,
          title: text,
          role: 'meter',
          'aria-label': 'Context used',
          'aria-valuemin': 0,
          'aria-valuemax': u.size,
          'aria-valuenow': Math.min(u.used, u.size),
          'aria-valuetext': text,
        },
        level === 'ok' ? null : icon(level === 'full' ? 'error' : 'warning'),
        h('span', { class: 'usage-bar' }, fill),
        formatUsage(u),
      ),
    );
  }
  if (command !== null) {
    const b = button(`Compact the conversation (sends /${command})`, 'fold', { class: 'icon-button compact-button' });
    b.addEventListener('click', () => post({ type: 'prompt', text: `/${command}` }));
    out.push(b);
  }
  return out;
}
