// The workspace's folders as a session sees them: the cwd chosen, the others as additionalDirectories
// (absolute, each once), and what the chat says when a folder comes or goes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pathStyle } from '../../src/common/pathBoundary';
import { additionalRoots, foldersChangedText, isAbsolutePath, pickCwd } from '../../src/common/workspaceRoots';

const posix = pathStyle('linux');
const win = pathStyle('win32');
const folders = [
  { name: 'app', path: '/w/app' },
  { name: 'lib', path: '/w/lib' },
  { name: 'docs', path: '/w/docs' },
];

describe('workspace roots', () => {
  it('works in the first folder unless acpChat.workingFolder names another (by name or path)', () => {
    assert.equal(pickCwd(folders, '', posix), '/w/app');
    assert.equal(pickCwd(folders, 'lib', posix), '/w/lib');
    assert.equal(pickCwd(folders, '/w/docs/', posix), '/w/docs');
    assert.equal(pickCwd(folders, 'gone', posix), '/w/app', 'a name no folder has falls back to the first');
    assert.equal(pickCwd([], '', posix), undefined);
    assert.equal(pickCwd([{ name: 'rel', path: 'w/rel' }, ...folders], '', posix), '/w/app', 'a folder that is not absolute is never the cwd');
  });

  it('sends the other folders, absolute and each once, in the workspace order', () => {
    assert.deepEqual(additionalRoots(folders, '/w/lib', posix), ['/w/app', '/w/docs']);
    assert.deepEqual(additionalRoots([...folders, { name: 'again', path: '/w/docs/.' }, { name: 'rel', path: 'x/y' }, { name: 'uri', path: 'file:///w/z' }], '/w/app', posix), [
      '/w/lib',
      '/w/docs',
    ]);
    assert.deepEqual(
      additionalRoots(
        [
          { name: 'a', path: 'C:\\w\\a' },
          { name: 'b', path: 'c:/W/A' },
          { name: 'c', path: 'D:\\x' },
        ],
        'C:\\w\\a',
        win,
      ),
      ['D:\\x'],
    );
  });

  it('knows an absolute path per platform', () => {
    assert.equal(isAbsolutePath('/a', posix), true);
    assert.equal(isAbsolutePath('a/b', posix), false);
    assert.equal(isAbsolutePath('C:\\a', win), true);
    assert.equal(isAbsolutePath('C:a', win), false);
    assert.equal(isAbsolutePath('\\a', win), false);
    assert.equal(isAbsolutePath('file:///a', posix), false, 'a URI is not a path');
  });

  it('says which folders came or went, and whether the agent will hear of them', () => {
    assert.equal(foldersChangedText([], [], true), null);
    const t = foldersChangedText(['/w/new'], ['/w/old'], true);
    assert.equal(t?.title, 'Workspace folders changed: added /w/new; removed /w/old.');
    assert.match(t?.description ?? '', /next session/);
    assert.match(foldersChangedText(['/w/new'], [], false)?.description ?? '', /does not take additional directories/);
  });
});
