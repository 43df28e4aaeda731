// The packaged extension (dist/acp-chat.vsix, written by scripts/package.mjs): exactly the files the
// installed extension needs, production bundles within their budgets, and the Marketplace metadata.
// `npm test` packages before the unit stage; run on its own, this test packages first when no .vsix exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readZip, type ZipEntry } from '../helpers/zip';

const root = path.resolve(__dirname, '../../..');
const vsixPath = path.join(root, 'dist/acp-chat.vsix');

/** Budgets of the minified bundles, in bytes. */
// Above today's sizes (extension 651 KB, webview 260 KB, CLI 395 KB, demo agent 220 KB), so growth is a
// decision: the extension's was raised from 650 KB when compaction, plans by id, MCP choice, multi-root
// folders and the round-4 guards (linear-time patterns, id ledger) came in. zod is imported as a namespace (`import * as z`) so that its unused parts (the locales alone
// were 300 KB) are left out; `import { z }` keeps all of it. Remote agents (issue 44) added the SDK's
// WebSocket and Streamable HTTP clients and `ws` (about 75 KB, to both the extension and the CLI: 730 KB and
// 470 KB with them), hence 800 KB and 500 KB. The same round's history search, worktree chats, hunk review,
// code-block actions and context sources brought the extension to 808 KB, hence 880 KB: the next raise should
// come with a split (the worktree and history code loaded on first use, as the debug bundle is).
const BUDGETS: Readonly<Record<string, number>> = {
  'extension/dist/extension.js': 880 * 1024,
  'extension/dist/webview.js': 300 * 1024,
  // highlight.js with 28 grammars (133 KB), loaded by the panel only when it draws its first code block.
  'extension/dist/highlight.js': 160 * 1024,
  'extension/dist/cli.js': 500 * 1024,
  'extension/dist/demo-agent.js': 250 * 1024,
};
/** The whole .vsix (compressed). */
const VSIX_BUDGET = 1024 * 1024;

const EXPECTED = [
  '[Content_Types].xml',
  'extension.vsixmanifest',
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
  'extension/dist/cli.js',
  'extension/dist/demo-agent.js',
  'extension/dist/webview.js',
  'extension/dist/highlight.js',
  'extension/dist/codicons/codicon.css',
  'extension/dist/codicons/codicon.ttf',
  'extension/media/chat.css',
  'extension/media/icon.png',
  'extension/media/icons/chat-activity.svg',
  'extension/media/icons/chat-dark.svg',
  'extension/media/icons/chat-light.svg',
].sort();

function vsix(): { bytes: number; entries: Map<string, Buffer> } {
  if (!existsSync(vsixPath)) {
    const r = spawnSync(process.execPath, ['scripts/package.mjs'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, `scripts/package.mjs failed:\n${r.stdout}\n${r.stderr}`);
  }
  const zip = readFileSync(vsixPath);
  return { bytes: zip.length, entries: new Map(readZip(zip).map((e: ZipEntry) => [e.name, e.data])) };
}

const { bytes, entries } = vsix();
const text = (name: string): string => {
  const data = entries.get(name);
  assert.ok(data, `${name} is in the .vsix`);
  return data.toString('utf8');
};

test('the .vsix holds exactly what the installed extension needs', () => {
  assert.deepEqual([...entries.keys()].sort(), EXPECTED);
  assert.ok(bytes <= VSIX_BUDGET, `.vsix ${bytes} bytes > ${VSIX_BUDGET}`);
});

test('its bundles are minified, within budget, and reference no source map', () => {
  for (const [name, budget] of Object.entries(BUDGETS)) {
    const js = text(name);
    assert.ok(js.length <= budget, `${name}: ${js.length} bytes > budget ${budget}`);
    assert.doesNotMatch(js, /sourceMappingURL/, `${name} points at a map the .vsix does not ship`);
    // Minified: a development bundle has tens of thousands of lines; the minifier keeps only the newlines inside string literals.
    const lines = js.split('\n').length;
    assert.ok(lines < 2000, `${name} has ${lines} lines: not a production build`);
  }
  assert.doesNotMatch(text('extension/dist/webview.js'), /ZodError|_zod/, 'zod reached the webview bundle');
  assert.ok(text('extension/dist/cli.js').startsWith('#!/usr/bin/env node\n'), 'the CLI runs as a bin');
});

test('the manifest carries the Marketplace metadata', () => {
  const manifest = JSON.parse(text('extension/package.json')) as Record<string, unknown>;
  for (const field of ['icon', 'repository', 'homepage', 'bugs', 'keywords', 'galleryBanner', 'license']) assert.ok(manifest[field], `package.json lacks ${field}`);
  const contributes = manifest.contributes as { configuration: { title: string } };
  assert.equal(contributes.configuration.title, 'ACP Chat');
  assert.match(text('extension.vsixmanifest'), /<Icon>extension\/media\/icon\.png<\/Icon>/);
  // A PNG's IHDR chunk holds its width and height right after the signature and the chunk header.
  const icon = entries.get('extension/media/icon.png');
  assert.ok(icon);
  assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
  assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128]);
});

test("the README's images load from the repository, since the screenshots are not packaged", () => {
  const readme = text('extension/readme.md');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1] as string);
  assert.ok(images.length > 0);
  for (const src of images) assert.match(src, /^https:\/\//, `image ${src} would be missing from the details page`);
});
