// Headless Debian Chromium through playwright-core, and helpers to drive the test page like a host.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium.mjs';
import { root } from './server.mjs';

const { rawOf, toViewEntry } = await tsImport('../../src/common/webview/viewEntry.ts', import.meta.url);
const { encodeEntry } = await tsImport('../../src/common/webview/wire.ts', import.meta.url);
const { WireEncoder } = await tsImport('../../src/common/webview/wireEncoder.ts', import.meta.url);

/**
 * Plays the host's part between the store and the webview, for one panel: entries in snapshots and
 * insert/replace ops are written like the store's (fixtures.mjs) and ops name their entry by key, as the
 * tests read best; they go out as the host posts them: projected (`toViewEntry`) and encoded by the
 * shipped WireEncoder, which numbers the handles as the live panel's PatchBatcher does. A key the
 * webview was never sent gets handle -1. Raw JSON is kept for the page's stand-in host to answer `getRaw` with.
 */
function wireHost() {
  const encoder = new WireEncoder();
  /** A subagent transcript's feed numbers its own handles: one encoder per child. */
  const children = new Map();
  return function asHost(msg) {
    if (msg?.type === 'subagent') {
      if (!children.has(msg.childSessionId)) children.set(msg.childSessionId, wireHost());
      const inner = children.get(msg.childSessionId)(msg.message);
      return { msg: { ...msg, message: inner.msg }, raws: inner.raws };
    }
    const raws = {};
    const view = (e) => {
      const raw = rawOf(e);
      if (raw) raws[e.key] = raw;
      return toViewEntry(e);
    };
    if (msg?.type === 'snapshot') {
      encoder.snapshot(msg.entries, msg.olderCount ?? 0);
      return { msg: { ...msg, entries: msg.entries.map((e) => encodeEntry(view(e))) }, raws };
    }
    if (msg?.type === 'older') {
      encoder.older(msg.entries, msg.olderCount);
      return { msg: { ...msg, entries: msg.entries.map((e) => encodeEntry(view(e))) }, raws };
    }
    if (msg?.type !== 'patch') return { msg, raws };
    const ops = msg.ops.map((o) => {
      switch (o.op) {
        case 'insert':
        case 'replace':
          return encoder.entryOp({ ...o, entry: view(o.entry) });
        case 'appendText':
        case 'fields':
          return encoder.entryOp(o);
        default:
          return o;
      }
    });
    return { msg: { ...msg, ops }, raws };
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/**
 * Builds dist/webview.js (+ codicons). Tries the full build; when another part of the tree does not
 * build yet, builds just the webview bundle with scripts/bundles.mjs's options.
 */
export async function buildWebview() {
  const full = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  if (full.status === 0 && existsSync(path.join(root, 'dist/webview.js'))) return;
  console.warn(`full build failed, building the webview bundle only:\n${(full.stderr || full.stdout).slice(0, 2000)}`);
  const esbuild = await import('esbuild');
  const { bundles } = await import('../../scripts/bundles.mjs');
  const webview = bundles({ production: false }).webview;
  if (!webview) throw new Error('scripts/bundles.mjs has no webview bundle');
  await esbuild.build(webview);
  const { cpSync, mkdirSync } = await import('node:fs');
  mkdirSync(path.join(root, 'dist/codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(path.join(root, 'node_modules/@vscode/codicons/dist', f), path.join(root, 'dist/codicons', f));
}

/**
 * Bundles a probe module (test/browser/<name>, or an absolute path: it sets a `window.__…` function over webview modules) and
 * runs it in the page; evaluated rather than added as a script element, since the page's CSP admits only
 * its own script.
 */
export async function loadProbe(page, name) {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    bundle: true,
    write: false,
    logLevel: 'warning',
    absWorkingDir: root,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: [path.isAbsolute(name) ? name : path.join(root, 'test/browser', name)],
  });
  await page.evaluate(out.outputFiles[0].text);
}

/** Opens the test page and wraps it with host-side helpers. */
/** `beforeLoad(page)` runs before the page loads (to install Playwright's clock, or an init script). */
export async function openPanel(browser, server, { theme = 'dark', width = 520, height = 900, state, scale = 1, reducedMotion = 'no-preference', beforeLoad, view } = {}) {
  // `scale` 2 with half the CSS size is what a 200% zoom looks like to the page.
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, reducedMotion });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await beforeLoad?.(page);
  await page.goto(server.pageUrl(theme, state, view));
  const asHost = wireHost();
  await page.waitForFunction(() => window.__host && window.__host.posted.some((m) => m.type === 'ready'));
  return {
    page,
    errors,
    /** Delivers one HostToWebview message. */
    send: (msg) => page.evaluate(({ msg: m, raws }) => window.__host.deliver(m, raws), asHost(msg)),
    /** One HostToWebview message as the host would post it (`{ msg, raws }`), for a test that delivers it inside its own page.evaluate. */
    wire: (msg) => asHost(msg),
    /** Draws pending frames now. */
    flush: () => page.evaluate(() => window.__acpChat.flush()),
    posted: () => page.evaluate(() => window.__host.posted),
    clearPosted: () => page.evaluate(() => window.__host.clear()),
    close: () => context.close(),
  };
}
