/** Non-text content blocks (images, files, resources), shared by messages and tool calls. */
import type { ContentBlock } from '../../src/common/protocol/content';
import { unsupportedType } from '../../src/common/protocol/contentHelpers';
import { h, icon } from '../dom';
import { classifyLink } from '../../src/common/links';
import { resourceLabel } from '../../src/common/context';

export function renderBlock(b: Exclude<ContentBlock, { type: 'text' }>): HTMLElement {
  switch (b.type) {
    case 'image':
      return h('img', { class: 'content-image', alt: b.uri ?? 'image', src: `data:${b.mimeType};base64,${b.data}` });
    case 'audio':
      return h('div', { class: 'chip' }, icon('unmute'), `audio (${b.mimeType})`);
    case 'resource_link':
      return fileChip(b.uri, b.title ?? b.name);
    case 'resource':
      return fileChip(b.resource.uri, resourceLabel(b.resource.uri));
    case 'unsupported':
      // Kept whole in the store (and the debug tree); the panel only says what it cannot show.
      return h('div', { class: 'chip unsupported' }, icon('question'), `unsupported content: ${unsupportedType(b)}`);
  }
}

function fileChip(uri: string, name: string): HTMLElement {
  const t = classifyLink(uri);
  const loc = t.kind === 'file' ? t : null;
  return h(
    'button',
    {
      type: 'button',
      class: 'chip file-chip',
      title: uri,
      'data-path': loc?.path,
      'data-line': loc?.line ?? null,
      'data-href': loc ? null : uri,
    },
    icon('file'),
    name,
  );
}
