/**
 * The prompt box's ways to add context besides typing: the Add Context button (the host asks what to add)
 * and files or folders dropped on the prompt box (VS Code lets a drop from the Explorer or an editor tab
 * reach a webview while Shift is held). The host reads what was dropped; only `file:` URIs count there.
 */
import type { WebviewToHost } from '../src/common/webview/contract';
import type { ContextKind } from '../src/common/context';
import { button } from './dom';

/** The codicon of each kind of context chip. */
export const CHIP_ICONS: Readonly<Record<ContextKind, string>> = {
  selection: 'list-selection',
  file: 'file',
  problems: 'warning',
  folder: 'folder',
  symbol: 'symbol-method',
  terminal: 'terminal',
};

export function addContextButton(post: (m: WebviewToHost) => void): HTMLButtonElement {
  const b = button('Add context… (or type @)', 'attach', { class: 'add-context' });
  b.addEventListener('click', () => post({ type: 'addContext', source: 'pick' }));
  return b;
}

/** The URIs a drop carries: VS Code's own list first (Explorer, tabs), else the standard one; comment lines skipped. */
function dropUris(dt: DataTransfer): string[] {
  const list = dt.getData('application/vnd.code.uri-list') || dt.getData('text/uri-list');
  return list
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .slice(0, 100);
}

const carriesUris = (dt: DataTransfer | null): boolean => !!dt && [...dt.types].some((t) => t === 'text/uri-list' || t === 'application/vnd.code.uri-list');

export function acceptDrops(el: HTMLElement, post: (m: WebviewToHost) => void): void {
  el.addEventListener('dragover', (e) => {
    if (!carriesUris(e.dataTransfer)) return;
    e.preventDefault();
    el.classList.add('drop-target');
  });
  el.addEventListener('dragleave', () => el.classList.remove('drop-target'));
  el.addEventListener('drop', (e) => {
    el.classList.remove('drop-target');
    if (!e.dataTransfer || !carriesUris(e.dataTransfer)) return;
    e.preventDefault();
    const uris = dropUris(e.dataTransfer);
    if (uris.length) post({ type: 'dropContext', uris });
  });
}
