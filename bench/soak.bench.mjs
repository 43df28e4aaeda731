// The soak: a day of work in a real VS Code host (code-server and headless Chromium, as the host stages run
// it) against the demo agent at full speed (no pause between chunks), then whether memory and CPU stayed flat.
//   node bench/soak.bench.mjs [--full] [--no-build]   (`npm run soak` is --full; `npm run bench` runs the short
//   day; --no-build: the production bundles already in dist/, as another bench built them)
// The day is HOURS hour-equivalents of the same work each: two new chats (the previous ones closed), each
// with its turns (streamed Markdown with a file read, an edit behind a permission that is allowed, a command
// in a terminal; one subagent turn an hour), one agent crash an hour and its restarts, a fork of the
// hour's first chat that is then archived; after each of the first RELOADS hours, Reload Window.
//   full  (--full): 10 hours, 20 chats, 200 turns, 10 crashes, 5 reloads
//   short (default): 2 hours, 4 chats, 16 turns, 2 crashes, 1 reload
// At the end of every hour, memory after a full GC: the extension host's JS heap (the extension's test-only
// probe, src/node/soakProbe.ts, on SIGUSR2) and the renderer's (Chrome DevTools Protocol: the workbench and
// its webviews share one renderer here) with its DOM counters; and the extension host's CPU time over the
// hour's turns per KB of answer text they showed. At the ends, the extension host's CPU while idle (no chat
// open at the end), the processes under code-server and the extension host's open files. Heap snapshots of
// the extension host after the first and the last hour are kept in test-results/soak/ (compare them in
// Chrome DevTools' Memory tab, Comparison view, or with `node scripts/heap-diff.mjs A B`).
// Figures (each a ratio against the same figure earlier in the same run, so they hold under load):
//   soak.hostHeapGrowth          extension-host heap after the last hour / after the first (goal <= 1.1)
//   soak.rendererHeapGrowth      the renderer's heap, the same
//   soak.hostCpuPerKbLastOverFirst  extension-host CPU per KB streamed, last hour / first (goal <= 1.1)
//   soak.idleCpuEndOverStart     extension-host CPU while idle at the end / after start-up (goal <= 1):
//                                at each end, the day's host is measured window by window together with the
//                                host of a second window opened then (so load moves both alike); the figure
//                                is the end's ratio over the start's (a first window idles ~1.2x a second
//                                one, with no day at all: that cancels)
//   soak.processesLeft, soak.hostFilesLeft  processes under code-server and files the extension host holds
//                                at the end, beyond what it had after start-up (goal <= 0)
// Prints one JSON object as the last line; `--full` also writes it to soak-results.json, which
// scripts/bench-doc.mjs shows in place of the short day's figures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chatFrame, DEMO_REPLY, launchBrowser, log, paletteCommand, reloadWindow, root, sendPrompt, startCodeServer, workbenchUrl } from '../test/e2e/host.mjs';
import { until } from '../test/helpers/until.mjs';
import { topFunctions } from './lib/cpuProfile.mjs';
import { descendants, hostProbe, openFileKinds, openFiles, processLabel, rendererMemory } from './lib/soakHost.mjs';
import { tsImport } from 'tsx/esm/api';

const { median, ratioFigure, roundRatios } = await tsImport('./lib/rounds.ts', import.meta.url);

const full = process.argv.includes('--full');
const HOURS = full ? 10 : 2;
const CHATS_PER_HOUR = 2;
const TURNS_PER_CHAT = full ? 10 : 4;
const RELOADS = full ? 5 : 1;
/** How long the extension host's idle CPU is measured, at start-up and at the end. */
const IDLE_MS = 5_000;
const IDLE_WINDOWS = 4;
/** Windows of IDLE_MS in which the day's host and a second window's are measured together, at each end. */
const PAIRED_WINDOWS = 8;
/** The turns of a chat, in turn: Markdown with a file read, an edit behind a permission, a terminal command. */
const PROMPTS = ['Explain the plan in markdown, please.', 'Please edit the notes.', 'Run the tests in a terminal.', 'Summarise what changed so far.'];
const SUBAGENT_PROMPT = 'Hand the notes to a subagent, please.';

const out = path.join(root, 'test-results/soak');
rmSync(out, { recursive: true, force: true });
const probeDir = path.join(out, 'probe');
mkdirSync(probeDir, { recursive: true });
const faultFile = path.join(out, 'fault');
const setFault = (f) => writeFileSync(faultFile, f);
setFault('');
// The fault is read at each start of the agent (as in test/e2e/ui-recovery.mjs): a crash is the demo agent's own.
const agent = {
  id: 'soak',
  name: 'Soak demo',
  command: 'sh',
  args: ['-c', `ACP_DEMO_FAULT="$(cat '${faultFile}')" exec '${process.execPath}' '${path.join(root, 'dist/demo-agent.js')}'`],
  env: { ACP_DEMO_DELAY_MS: '0' },
};

if (!process.argv.includes('--no-build') && spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: root, stdio: 'inherit' }).status !== 0)
  throw new Error('the production build failed');
const cs = await startCodeServer({
  env: { ACP_CHAT_SOAK_PROBE: probeDir },
  settings: { 'acpChat.agents': [agent], 'acpChat.defaultAgent': 'soak', 'acpChat.notifyWhenUnseen': false, 'workbench.editor.enablePreview': false },
});
const probe = hostProbe(probeDir);
const browser = await launchBrowser(cs);
const page = await browser.newPage({ viewport: { width: 1300, height: 850 } });
page.setDefaultTimeout(60_000);
const command = (title) => paletteCommand(page, title);
const idle = (f) => f.locator('.turn.turn-idle').waitFor({ timeout: 120_000 });
const results = {};
const hours = [];
const t0 = Date.now();

/** What the chat shows after its last prompt: the answer's characters, and whether it holds the demo's reply. */
const newestAnswer = (f) =>
  f.evaluate((reply) => {
    const all = [...document.querySelectorAll('[data-kind="user_message"], [data-kind="agent_message"]')];
    const after = all.slice(all.findLastIndex((e) => e.getAttribute('data-kind') === 'user_message') + 1);
    return { replied: after.some((e) => e.textContent?.includes(reply)), chars: after.reduce((n, e) => n + (e.textContent?.length ?? 0), 0) };
  }, DEMO_REPLY);

/** One turn: the prompt sent, every permission it asks allowed once, until the chat is idle with the demo's reply; the answer's characters. */
async function turn(f, text) {
  await sendPrompt(f, text);
  let seen = { replied: false, chars: 0 };
  await until(
    async () => {
      const allow = f.locator('.permission .perm-allow_once');
      if ((await allow.count()) > 0)
        await allow
          .first()
          .click({ timeout: 5_000 })
          .catch(() => {});
      seen = await newestAnswer(f);
      return seen.replied && (await f.locator('.turn.turn-idle').count()) > 0;
    },
    () => `the turn "${text}" to end with the demo's reply (${JSON.stringify(seen)})`,
    180_000,
  );
  return seen.chars;
}

/** The agent dies mid-turn (its fault), the chat restarts it by itself; then a healthy agent again. */
async function crashAndRestart(f) {
  setFault('crash-mid-turn');
  await command('ACP: Restart Agent');
  await idle(f);
  await sendPrompt(f, 'Think, then crash.');
  await f.locator('.notice', { hasText: 'stopped unexpectedly and was restarted' }).first().waitFor({ timeout: 60_000 });
  setFault('');
  await command('ACP: Restart Agent');
  await idle(f);
}

/** Fork Chat Here on the chat's last message, then Archive Chat on the fork (which closes its tab). */
async function forkAndArchive(f) {
  const last = f.locator('[data-kind="user_message"]').last();
  await last.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await last.hover();
  await last.locator('button.fork-chat').click();
  // An agent that forks only whole sessions has the workbench ask first when later turns would come along.
  const confirm = page.locator('.monaco-dialog-box button', { hasText: /^Fork$/ });
  if (
    await confirm.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    )
  )
    await confirm.click();
  const forkTab = page.locator('.tabs-container .tab', { hasText: /\(fork\)/ }).first();
  await forkTab.waitFor({ timeout: 60_000 });
  await forkTab.click();
  await command('ACP: Archive Chat');
  await forkTab.waitFor({ state: 'detached', timeout: 60_000 });
  // The chat's tab is shown again, in a new webview (a hidden one is not kept).
  return chatFrame(page, 60_000);
}

/** A new chat on its own (every other editor closed, so the chat tabs before it stop their agents). */
async function newChat() {
  await command('View: Close All Editors');
  await command('ACP: New Chat');
  const f = await chatFrame(page, 60_000);
  await f.locator('.agent-name-text', { hasText: 'Soak demo' }).waitFor({ timeout: 60_000 });
  return f;
}

/**
 * The extension host's CPU with nothing to do, in ms per second: the lowest of IDLE_WINDOWS windows of
 * IDLE_MS. Not "until one is no lower than the one before": a fresh host still activating built-in
 * extensions on a loaded machine falls slowly, and that rule stopped at 92.6 ms/s once, whose profile
 * right after showed the host idle.
 */
async function idleCpu(pid) {
  let lowest = Infinity;
  for (let i = 0; i < IDLE_WINDOWS; i++) {
    const a = await probe.ask(pid, { cpuOnly: true });
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const b = await probe.ask(pid, { cpuOnly: true });
    lowest = Math.min(lowest, (b.cpuMicros - a.cpuMicros) / 1000 / (IDLE_MS / 1000));
  }
  return lowest;
}

/**
 * The day's extension host against a fresh one, idle, over the same PAIRED_WINDOWS windows (each host's CPU
 * read one right after the other at both ends of a window): the median of the per-window ratios, and its
 * spread. The start-up figure read at the start of the day is minutes and a machine's load apart from the
 * end's; at the host's floor (about 1.5 ms/s, most of it the workbench's own messages) that distance decided
 * the ratio. So at each end a second window is opened on the same folder, its host settled as the first one
 * was, and both are measured together; then the second window is closed and its host stopped.
 */
async function besideSecondWindow(dayHost, name) {
  const second = await browser.newPage({ viewport: { width: 1300, height: 850 } });
  await second.goto(workbenchUrl(cs), { waitUntil: 'domcontentloaded', timeout: 180_000 });
  await second.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
  const fresh = await probe.next();
  await idleCpu(fresh);
  await idleProfile(fresh, `${name}-second`);
  const cpu = async () => [(await probe.ask(dayHost, { cpuOnly: true })).cpuMicros, (await probe.ask(fresh, { cpuOnly: true })).cpuMicros];
  const rows = [];
  let before = await cpu();
  for (let i = 0; i < PAIRED_WINDOWS; i++) {
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const after = await cpu();
    const [day, other] = after.map((x, k) => (x - before[k]) / 1000 / (IDLE_MS / 1000));
    rows.push({ day, other: Math.max(other, 0.01) });
    before = after;
  }
  await second.close();
  // Its host ends with its window, or is stopped here (one kept for a reconnection: it is not coming back).
  try {
    process.kill(fresh, 'SIGTERM');
  } catch (e) {
    if (e.code !== 'ESRCH') throw e;
  }
  await until(() => !existsSync(`/proc/${fresh}`), `the second window's extension host ${fresh} to end`, 60_000);
  const days = rows.map((r) => r.day);
  const others = rows.map((r) => r.other);
  // The per-window ratios as every interleaved figure reads them (bench/lib/rounds.ts): median and spread.
  const figure = ratioFigure('pair', days, others, 2);
  const pair = { day: median(days), other: median(others), ratio: roundRatios(days, others).median, spread: figure['pair.spread'] };
  log(`idle ${name}: the day's host ${pair.day.toFixed(2)} ms/s, a second window's ${pair.other.toFixed(2)} ms/s, ratio ${pair.ratio.toFixed(2)} (${pair.spread})`);
  return pair;
}

const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * SOAK_IDLE_PROFILE=1: a CPU profile of the extension host over one idle window (test-results/soak/probe/
 * idle-NAME.cpuprofile), and its costliest functions logged, for whoever looks into the idle figure.
 */
/** Frames of the extension's own bundles (the host runs them from this tree's dist/). */
const ownCode = new RegExp(`^file://${path.join(root, 'dist').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);

async function idleProfile(pid, name) {
  if (!process.env.SOAK_IDLE_PROFILE) return;
  await probe.ask(pid, { profile: 'start' });
  await new Promise((r) => setTimeout(r, IDLE_MS * 2));
  await probe.ask(pid, { profile: `idle-${name}.cpuprofile` });
  const file = path.join(probeDir, `idle-${name}.cpuprofile`);
  await until(() => existsSync(file), file, 30_000);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  log(
    `idle ${name}, costliest:\n${topFunctions(profile, { limit: 25 })
      .map((f) => `  ${f.totalMs} ms (self ${f.selfMs}) ${f.fn}`)
      .join('\n')}\n  in the extension's own code:\n${topFunctions(profile, { only: ownCode, limit: 10 })
      .map((f) => `  ${f.totalMs} ms (self ${f.selfMs}) ${f.fn}`)
      .join('\n')}`,
  );
}

try {
  await page.goto(workbenchUrl(cs), { waitUntil: 'domcontentloaded', timeout: 180_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
  let host = await probe.next();
  log(`workbench up, extension host ${host}`);
  // Start-up: the workbench settled with no chat; what is running then is the baseline for the end.
  const startIdle = await idleCpu(host);
  await idleProfile(host, 'start');
  const startProcesses = descendants(cs.child.pid);
  const startFiles = openFiles(host);
  const startFileKinds = openFileKinds(host);
  log(`start-up: idle CPU ${startIdle.toFixed(2)} ms/s, ${startProcesses.length} processes, ${startFiles} open files in the extension host`);
  const startPair = await besideSecondWindow(host, 'start');

  for (let h = 1; h <= HOURS; h++) {
    const start = await probe.ask(host, { cpuOnly: true });
    let chars = 0;
    let turns = 0;
    for (let c = 0; c < CHATS_PER_HOUR; c++) {
      const f = await newChat();
      for (let i = 0; i < TURNS_PER_CHAT; i++) {
        const text = c === CHATS_PER_HOUR - 1 && i === TURNS_PER_CHAT - 1 ? SUBAGENT_PROMPT : PROMPTS[i % PROMPTS.length];
        chars += await turn(f, text);
        turns++;
      }
      if (c === 0) await crashAndRestart(await forkAndArchive(f));
      log(`hour ${h}, chat ${c + 1}: ${TURNS_PER_CHAT} turns${c === 0 ? ', a fork archived, a crash' : ''}`);
    }
    // The hour's work in one extension host: its CPU is read before the collection and the snapshot.
    const end = await probe.ask(host, { cpuOnly: true });
    const memory = await probe.ask(host, h === 1 || h === HOURS ? { snapshot: `host-hour-${h}.heapsnapshot` } : {});
    const renderer = await rendererMemory(page);
    const hour = {
      hour: h,
      turns,
      kb: chars / 1024,
      hostCpuMs: (end.cpuMicros - start.cpuMicros) / 1000,
      hostHeap: memory.heapUsed,
      hostRss: memory.rss,
      rendererHeap: renderer.heapUsed,
      renderer,
      elapsedS: Math.round((Date.now() - t0) / 1000),
    };
    hours.push(hour);
    log(
      `hour ${h}/${HOURS}: ${turns} turns, ${hour.kb.toFixed(0)} KB shown, host CPU ${(hour.hostCpuMs / hour.kb).toFixed(1)} ms/KB, host heap ${mb(hour.hostHeap)} MB, renderer heap ${mb(hour.rendererHeap)} MB (${renderer.nodes} nodes, ${renderer.documents} documents)`,
    );
    if (h <= RELOADS) {
      await reloadWindow(page, command);
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 180_000 });
      host = await probe.next();
      // The chat that was open comes back in its tab.
      await idle(await chatFrame(page, 120_000));
      log(`reloaded: extension host ${host}`);
    }
  }

  // The end of the day: every chat closed, its agent and terminals stopped.
  await command('View: Close All Editors');
  await until(() => !descendants(cs.child.pid).some((p) => p.cmd.includes('demo-agent.js')), 'no agent left running', 60_000);
  const endIdle = await idleCpu(host);
  await idleProfile(host, 'end');
  const endProcesses = descendants(cs.child.pid);
  const endFiles = openFiles(host);
  // Counted above, before a second window adds its host.
  const endPair = await besideSecondWindow(host, 'end');
  const [first, last] = [hours[0], hours.at(-1)];
  const perKb = (x) => x.hostCpuMs / x.kb;
  const names = (list) => list.map(processLabel).sort().join(', ');
  Object.assign(results, {
    'soak.mode': full ? 'full' : 'short',
    'soak.day': `${HOURS} hours, ${HOURS * CHATS_PER_HOUR} chats, ${hours.reduce((n, x) => n + x.turns, 0)} turns, ${HOURS} crashes, ${RELOADS} reloads`,
    'soak.minutes': Math.round((Date.now() - t0) / 6000) / 10,
    'soak.hostHeapFirstMb': mb(first.hostHeap),
    'soak.hostHeapLastMb': mb(last.hostHeap),
    'soak.hostHeapGrowth': round(last.hostHeap / first.hostHeap, 3),
    'soak.hostHeapGrowth.goal': '<= 1.1',
    'soak.hostHeapByHourMb': hours.map((x) => mb(x.hostHeap)).join(' '),
    'soak.rendererHeapFirstMb': mb(first.rendererHeap),
    'soak.rendererHeapLastMb': mb(last.rendererHeap),
    'soak.rendererHeapGrowth': round(last.rendererHeap / first.rendererHeap, 3),
    'soak.rendererHeapGrowth.goal': '<= 1.1',
    'soak.rendererHeapByHourMb': hours.map((x) => mb(x.rendererHeap)).join(' '),
    'soak.rendererNodesByHour': hours.map((x) => x.renderer.nodes).join(' '),
    'soak.hostCpuMsPerKbFirst': round(perKb(first), 2),
    'soak.hostCpuMsPerKbLast': round(perKb(last), 2),
    'soak.hostCpuPerKbLastOverFirst': round(perKb(last) / perKb(first), 3),
    'soak.hostCpuPerKbLastOverFirst.goal': '<= 1.1',
    'soak.hostCpuMsPerKbByHour': hours.map((x) => round(perKb(x), 1)).join(' '),
    'soak.idleCpuStartMsPerS': round(startIdle, 2),
    'soak.idleCpuEndMsPerS': round(endIdle, 2),
    'soak.idleCpuBesideSecondStart': round(startPair.ratio, 2),
    'soak.idleCpuBesideSecondStart.spread': `${startPair.spread}; ${round(startPair.day, 2)} vs ${round(startPair.other, 2)} ms/s`,
    'soak.idleCpuBesideSecondEnd': round(endPair.ratio, 2),
    'soak.idleCpuBesideSecondEnd.spread': `${endPair.spread}; ${round(endPair.day, 2)} vs ${round(endPair.other, 2)} ms/s`,
    'soak.idleCpuEndOverStart': round(endPair.ratio / startPair.ratio, 2),
    'soak.idleCpuEndOverStart.goal': '<= 1',
    'soak.processesStart': names(startProcesses),
    'soak.processesEnd': names(endProcesses),
    'soak.processesLeft': endProcesses.length - startProcesses.length,
    'soak.processesLeft.goal': '<= 0',
    'soak.hostFilesStart': startFiles,
    'soak.hostFilesEnd': endFiles,
    'soak.hostFilesLeft': endFiles - startFiles,
    'soak.hostFilesLeft.goal': '<= 0',
    'soak.heapSnapshots': `test-results/soak/probe/host-hour-1.heapsnapshot, test-results/soak/probe/host-hour-${HOURS}.heapsnapshot`,
  });
  if (endFiles > startFiles) results['soak.hostFileKindsStartEnd'] = JSON.stringify({ start: startFileKinds, end: openFileKinds(host) });
  writeFileSync(path.join(out, 'hours.json'), JSON.stringify(hours, null, 1));
} catch (e) {
  const shot = path.join(out, 'failure.png');
  await page.screenshot({ path: shot }).catch(() => {});
  log(`failed; the workbench as it was: ${path.relative(root, shot)}`);
  throw e;
} finally {
  await browser.close().catch(() => {});
  await cs.stop();
}
if (full) writeFileSync(path.join(root, 'soak-results.json'), JSON.stringify({ machine: { date: new Date().toISOString() }, ...results }, null, 2) + '\n');
console.log(JSON.stringify(results));

function round(x, digits = 0) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
