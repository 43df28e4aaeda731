// Editing a message opens it as it was sent: text, images, context chips; carried blocks and @-mentioned files are not doubled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editDraft, fileOfUri } from '../../../src/common/rewind/editDraft';
import { CARRIED_META } from '../../../src/common/rewind/branchPlan';
import type { ContentBlock } from '../../../src/common/protocol/content';

test('file URIs to paths and ranges (POSIX and Windows); other schemes and remote hosts are not files', () => {
  assert.deepEqual(fileOfUri('file:///ws/a%20b.ts#L3-7'), { path: '/ws/a b.ts', lines: [3, 7], problems: false });
  assert.deepEqual(fileOfUri('file:///C:/ws/a.ts#L4'), { path: 'C:/ws/a.ts', lines: [4, 4], problems: false });
  assert.deepEqual(fileOfUri('file:///ws/a.ts#problems'), { path: '/ws/a.ts', lines: null, problems: true });
  assert.equal(fileOfUri('https://x/a.ts'), undefined);
  assert.equal(fileOfUri('file://server/share/a.ts'), undefined);
});

test('text, images and context come back; the carried transcript and @-mentioned files do not', () => {
  const content: ContentBlock[] = [
    { type: 'text', text: 'lead', _meta: { [CARRIED_META]: true } },
    { type: 'resource', resource: { uri: 'file:///store/t.md', text: '# Earlier' }, _meta: { [CARRIED_META]: true } },
    { type: 'text', text: 'fix @src/a.ts please' },
    { type: 'resource', resource: { uri: 'file:///ws/src/a.ts', text: 'A' } },
    { type: 'resource', resource: { uri: 'file:///ws/src/b.ts#L2-3', mimeType: 'text/plain', text: 'B' } },
    { type: 'resource_link', uri: 'file:///ws/big.bin', name: 'big.bin', size: 99 },
    { type: 'image', mimeType: 'image/png', data: 'AAAA' },
  ];
  assert.deepEqual(editDraft(content), {
    text: 'fix @src/a.ts please',
    images: [{ mimeType: 'image/png', data: 'AAAA' }],
    context: [
      { kind: 'selection', path: '/ws/src/b.ts', lines: [2, 3], text: 'B', size: 1 },
      { kind: 'file', path: '/ws/big.bin', lines: null, text: null, size: 99 },
    ],
  });
});
