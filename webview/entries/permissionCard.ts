/** A pending permission request as a card (on its tool call's card, or alone when it names no shown tool call). */
import type { PermissionView } from '../../src/common/webview/contract';
import { h, icon, inlineCode } from '../dom';

/** A pending request's options as buttons; keys 1..n are shown because main.ts answers the oldest request by key. */
export function permissionCard(p: PermissionView, post: (m: { type: 'permission'; requestId: string; optionId: string | null }) => void, active: boolean): HTMLElement {
  // The safe yes is the prominent one: "Allow once", never "Always allow".
  const primary = p.options.find((o) => o.kind === 'allow_once');
  const buttons = p.options.map((o, i) => {
    const b = h(
      'button',
      {
        type: 'button',
        class: `perm-option perm-${o.kind}${o === primary ? ' perm-primary' : ''}`,
        'data-option-id': o.optionId,
        'data-request-id': p.requestId,
        title: `${o.name} (${i + 1})`,
        'aria-keyshortcuts': active && i < 9 ? String(i + 1) : null,
      },
      active ? h('kbd', { 'aria-hidden': 'true' }, String(i + 1)) : null,
      o.name,
    );
    b.addEventListener('click', () => post({ type: 'permission', requestId: p.requestId, optionId: o.optionId }));
    return b;
  });
  return h(
    'div',
    {
      class: `permission${active ? ' active' : ''}`,
      role: 'group',
      'aria-label': `${p.fromSubagent ? `Subagent ${p.fromSubagent} asks permission` : 'Permission'}: ${p.title}`,
      'data-request-id': p.requestId,
    },
    // A subagent's request is answered here, in its parent's chat: it says which subagent asks.
    p.fromSubagent ? h('div', { class: 'perm-from' }, icon('hubot'), h('span', {}, `Subagent ${p.fromSubagent} needs you`)) : null,
    // Only the oldest request answers to the keys; the others wait their turn, visibly.
    h(
      'div',
      { class: 'perm-title' },
      icon('shield'),
      h('span', {}, ...inlineCode(p.title || 'The agent asks for permission')),
      h('span', { class: 'perm-hint' }, active ? 'Press a number · Esc rejects' : 'Queued'),
    ),
    h('div', { class: 'perm-options' }, ...buttons),
  );
}
