/**
 * Clicks in the panel, by delegation from its root: agent HTML never carries handlers of its own, so every
 * link, file chip, location and code copy button is handled here, and nothing navigates the webview. Its own
 * file because it is the one place agent-made links become host requests (which the host checks again).
 */
import type { WebviewToHost } from '../src/common/webview/contract';
import { classifyLink } from '../src/common/links';

/** Links, file chips and code blocks' Copy, Insert and Apply buttons, by delegation: agent HTML never carries handlers of its own. */
export function onPanelClick(e: MouseEvent, post: (m: WebviewToHost) => void): void {
  const target = e.target instanceof Element ? e.target : null;
  if (!target) return;
  const action = target.closest<HTMLElement>('.code-action');
  if (action) {
    const code = action.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    if (action.classList.contains('code-copy')) post({ type: 'copy', text: code });
    else if (action.classList.contains('code-insert')) post({ type: 'insertCode', text: code });
    else if (action.dataset['applyPath']) post({ type: 'applyCode', path: action.dataset['applyPath'], text: code });
    action.classList.add('done');
    setTimeout(() => action.classList.remove('done'), 1200);
    return;
  }
  const a = target.closest('a');
  if (a) {
    // Never navigate the webview; VS Code opens the link after our scheme check.
    e.preventDefault();
    openHref(a.getAttribute('href') ?? '', post);
    return;
  }
  const loc = target.closest<HTMLElement>('[data-path]');
  if (loc) {
    const line = loc.dataset['line'];
    post({ type: 'openLocation', path: loc.dataset['path'] ?? '', line: line ? Number(line) : null });
    return;
  }
  const href = target.closest<HTMLElement>('[data-href]')?.dataset['href'];
  if (href) openHref(href, post);
}

/** Files open in the editor, web links in the browser (the host checks again); anything else is ignored. */
function openHref(href: string, post: (m: WebviewToHost) => void): void {
  const t = classifyLink(href);
  if (t.kind === 'file') post({ type: 'openLocation', path: t.path, line: t.line });
  else if (t.kind === 'external') post({ type: 'openLink', href: t.uri });
}
