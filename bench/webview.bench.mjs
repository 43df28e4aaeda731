// Chat panel webview in headless Chromium (the built dist/webview.js under the real CSP):
//   webview.snapshot10kMs          ready -> a 10,000-entry snapshot drawn (first screen built, layout done)
//   webview.snapshot10kVsFullRatio that time / the time to build every entry (what a panel without
//                                  virtualization pays), measured in the same run on 1,000 entries and
//                                  scaled to 10,000 (building all 10,000 takes long enough to stall the bench)
//   webview.apply100kChunksMs      100,000 streamed chunks applied as the host sends them: one `patch` per
//                                  ~16 ms frame with one coalesced `appendText` per entry, each frame drawn
//   webview.apply100kChunksPerFrameUs  mean webview work per frame (the budget is 16,000)
//   webview.simulatedBytesPostedPerTextByte  the same ratio for this simulated batching (the real host
//                                  pipeline is measured by bench/hostPatches.bench.ts)
// Prints one JSON object as the last line.
import { buildWebview, launch, openPanel } from '../test/browser/browser.mjs';
import { startServer } from '../test/browser/server.mjs';

const ENTRIES = 10_000;
const FULL_BUILD_ENTRIES = 1_000;
const CHUNKS = 100_000;
const MESSAGES = 20; // 5,000 chunks each: long answers, where per-chunk re-rendering would hurt most
const CHUNKS_PER_FRAME = 25; // ~1,500 chunks/s: a fast agent

await buildWebview();
const server = await startServer();
const browser = await launch();
try {
  const panel = await openPanel(browser, server, { width: 800, height: 1000 });
  await panel.page.evaluate(defineHelpers);
  const snapshot = await panel.page.evaluate((n) => window.__bench.snapshot(n), ENTRIES);
  await panel.close();

  const full = await openPanel(browser, server, { width: 800, height: 1000 });
  await full.page.evaluate(defineHelpers);
  const fullBuild = await full.page.evaluate((n) => window.__bench.buildAll(n), FULL_BUILD_ENTRIES);
  fullBuild.ms *= ENTRIES / FULL_BUILD_ENTRIES;
  await full.close();

  const stream = await openPanel(browser, server, { width: 800, height: 1000 });
  await stream.page.evaluate(defineHelpers);
  const s = await stream.page.evaluate((o) => window.__bench.stream(o), { chunks: CHUNKS, messages: MESSAGES, perFrame: CHUNKS_PER_FRAME });
  await stream.close();

  const out = {
    'webview.snapshot10kMs': round(snapshot.ms),
    'webview.snapshot10kVsFullRatio': round(snapshot.ms / fullBuild.ms, 3),
    'webview.apply100kChunksMs': round(s.ms),
    'webview.apply100kChunksPerFrameUs': round((s.ms * 1000) / s.frames),
    // The real host pipeline's figure is webview.bytesPostedPerTextByte (bench/hostPatches.bench.ts).
    'webview.simulatedBytesPostedPerTextByte': round(s.postedBytes / s.textBytes, 3),
  };
  console.log(`snapshot: ${snapshot.built} of ${ENTRIES} entries built on first screen; full build ${round(fullBuild.ms)} ms (scaled from ${FULL_BUILD_ENTRIES})`);
  console.log(`stream: ${s.frames} frames, ${s.textBytes} text bytes, ${s.postedBytes} bytes posted, final text ok: ${s.ok}`);
  if (!s.ok) throw new Error('streamed text did not arrive intact');
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
  await server.close();
}

function round(x, d = 1) {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

// ---- runs in the page
function defineHelpers() {
  // Entries as the host posts them (src/common/webview/viewEntry.ts).
  const msg = (kind, key, text, i) => ({ kind, key, messageId: null, content: [{ type: 'text', text }], provenance: 'live', ...(kind === 'agent_thought' ? { span: { first: i, last: i + 1500 } } : {}) });
  const tool = (key, i) => ({
    kind: 'tool_call', key, toolCallId: key, title: `Read src/file${i}.ts`, name: null, toolKind: 'read', status: 'completed', content: [],
    locations: [{ path: `/w/src/file${i}.ts`, line: i % 90 }], raw: { input: 30 }, provenance: 'live',
  });
  const answer = (i) => `Answer **${i}**: the function \`f${i}\` returns early.\n\n- point one\n- point two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``;
  const entries = (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const k = i % 4;
      out.push(k === 0 ? msg('user_message', `e${i}`, `Question ${i}: why does it fail?`, i) : k === 1 ? msg('agent_thought', `e${i}`, `Thinking about ${i}`, i) : k === 2 ? tool(`e${i}`, i) : msg('agent_message', `e${i}`, answer(i), i));
    }
    return out;
  };
  const panel = { agentName: 'Bench', sessionId: 's', turn: 'idle', message: null, readOnly: false, plan: null, currentModeId: null, availableModes: [], availableCommands: [], configOptions: [], usage: null, title: null, queuedPrompts: [], permissions: [], notices: [], earlier: null };
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const app = () => window.__acpChat;

  // Agent-like text: words, inline code, paragraph breaks, lists and fenced code.
  function* chunkStream(seed) {
    let s = seed;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const words = ['the', 'store', 'reducer', 'applies', 'each', 'update', '`messageId`', 'once,', 'and', '**never**', 'twice.', 'Chunks', 'arrive', 'in', 'order'];
    for (let i = 0; ; i++) {
      const r = rnd();
      if (i % 60 === 59) yield '\n\n';
      else if (i % 400 === 100) yield '\n\n```ts\nconst a = 1;\n';
      else if (i % 400 === 110) yield '\n```\n\n';
      else if (i % 200 === 150) yield '\n- item ';
      else yield (r < 0.5 ? ' ' : '') + words[Math.floor(rnd() * words.length)];
    }
  }

  window.__bench = {
    async snapshot(n) {
      const data = { type: 'snapshot', protocol: 2, entries: entries(n), panel };
      await frames();
      const t0 = performance.now();
      window.__host.send(data);
      app().flush();
      await frames();
      void document.body.offsetHeight;
      const ms = performance.now() - t0;
      return { ms, built: document.querySelectorAll('[role="article"]:not(.placeholder)').length };
    },
    async buildAll(n) {
      window.__host.send({ type: 'snapshot', protocol: 2, entries: entries(n), panel });
      await frames();
      const t0 = performance.now();
      for (const v of app().transcript.views) v.hydrate();
      void document.body.offsetHeight;
      return { ms: performance.now() - t0 };
    },
    async stream({ chunks, messages, perFrame }) {
      window.__host.send({ type: 'snapshot', protocol: 2, entries: [msg('user_message', 'u0', 'Explain the store.', 0)], panel: { ...panel, turn: 'busy' } });
      await frames();
      const enc = new TextEncoder();
      let postedBytes = 0;
      let textBytes = 0;
      let frameCount = 0;
      const perMessage = chunks / messages;
      const expected = [];
      let busy = 0;
      for (let m = 0; m < messages; m++) {
        const key = `a${m}`;
        const gen = chunkStream(m + 1);
        let text = '';
        const insert = { type: 'patch', ops: [{ op: 'insert', index: 1 + m, entry: msg('agent_message', key, '', m) }] };
        postedBytes += JSON.stringify(insert).length;
        let t0 = performance.now();
        window.__host.send(insert);
        busy += performance.now() - t0;
        for (let c = 0; c < perMessage; c += perFrame) {
          // The host coalesces a frame's chunks for one entry into one appendText (PatchBatcher).
          let piece = '';
          for (let k = 0; k < perFrame; k++) piece += gen.next().value;
          text += piece;
          textBytes += enc.encode(piece).length;
          const patch = { type: 'patch', ops: [{ op: 'appendText', key, text: piece }] };
          postedBytes += JSON.stringify(patch).length;
          t0 = performance.now();
          window.__host.send(patch);
          app().flush();
          busy += performance.now() - t0;
          frameCount++;
        }
        expected.push([key, text]);
      }
      const entriesNow = app().transcript.entries;
      const ok = expected.every(([k, t]) => entriesNow.find((e) => e.key === k)?.content[0]?.text === t);
      return { ms: busy, frames: frameCount, postedBytes, textBytes, ok };
    },
  };
}
