// Runs in the bench's page (serialized by page.evaluate, so it refers to nothing outside itself): the
// workloads of bench/webview.bench.mjs as `window.__bench`. Each marks where its measured part starts
// and ends (`performance.mark`), so the bench reads that part's CPU time from the trace.
export function defineHelpers(protocol) {
  // Entries as the host posts them (src/common/webview/viewEntry.ts), in their wire form (wire.ts; fields
  // at their defaults may also be spelt out, and text blocks left as objects; a thought's span is [first, duration]).
  const msg = (kind, key, text, i) => ({
    kind,
    key,
    messageId: null,
    content: [{ type: 'text', text }],
    provenance: 'live',
    ...(kind === 'agent_thought' ? { span: [i, 1500] } : {}),
  });
  const tool = (key, i) => ({
    kind: 'tool_call',
    key,
    toolCallId: key,
    title: `Read src/file${i}.ts`,
    name: null,
    toolKind: 'read',
    status: 'completed',
    content: [],
    locations: [{ path: `/w/src/file${i}.ts`, line: i % 90 }],
    raw: { input: 30 },
    provenance: 'live',
  });
  const answer = (i) => `Answer **${i}**: the function \`f${i}\` returns early.\n\n- point one\n- point two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``;
  const entries = (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const k = i % 4;
      out.push(
        k === 0
          ? msg('user_message', `e${i}`, `Question ${i}: why does it fail?`, i)
          : k === 1
            ? msg('agent_thought', `e${i}`, `Thinking about ${i}`, i)
            : k === 2
              ? tool(`e${i}`, i)
              : msg('agent_message', `e${i}`, answer(i), i),
      );
    }
    return out;
  };
  const panel = {
    agentName: 'Bench',
    sessionId: 's',
    turn: 'idle',
    message: null,
    readOnly: false,
    plan: null,
    currentModeId: null,
    availableModes: [],
    availableCommands: [],
    configOptions: [],
    usage: null,
    title: null,
    queuedPrompts: [],
    permissions: [],
    notices: [],
    earlier: null,
  };
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const app = () => window.__acpChat;
  const scroller = () => document.querySelector('section[aria-label="Conversation"]');
  /** Resolves after the frame following the current task has been painted (a task queued from its rAF runs after the paint). */
  const painted = () =>
    new Promise((r) =>
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => r(performance.now());
        ch.port2.postMessage(0);
      }),
    );
  /**
   * Posts `data` (a message, or several) to the page as VS Code does (a structured clone through
   * postMessage) and resolves with the time from the post to the first frame painted after the panel
   * handled the last of them.
   */
  const firstPaint = (data, mark) =>
    new Promise((resolve) => {
      const messages = Array.isArray(data) ? data : [data];
      const chat = app();
      const receive = chat.receive;
      let received = 0;
      let count = 0;
      // Where the time goes: the structured clone, the panel's handler, the frame's style/layout/paint.
      chat.receive = (m) => {
        if (count === 0) received = performance.now();
        receive.call(chat, m);
        if (++count < messages.length) return;
        const handled = performance.now();
        window.__bench.handled = true;
        chat.receive = receive;
        painted().then((t) => {
          performance.mark(`${mark}-end`);
          resolve({ ms: t - t0, parts: [received - t0, handled - received, t - handled] });
        });
      };
      window.__bench.handled = false;
      performance.mark(`${mark}-start`);
      const t0 = performance.now();
      for (const m of messages) window.postMessage(m, '*');
    });
  /** Resolves once the panel has handled every part of the last snapshot. */
  const drained = () =>
    new Promise((r) => {
      const wait = () => (app().backlog ? requestAnimationFrame(wait) : r());
      wait();
    });
  /** Whether the newest entry is built and on screen. */
  const newestShown = () => {
    const last = document.querySelector('section[aria-label="Conversation"] [role="article"]:last-of-type');
    const all = document.querySelectorAll('section[aria-label="Conversation"] [role="article"]');
    const el = all[all.length - 1] ?? last;
    if (!el || el.classList.contains('placeholder')) return false;
    const r = el.getBoundingClientRect();
    const s = scroller().getBoundingClientRect();
    return r.bottom > s.top && r.top < s.bottom;
  };

  // Agent-like text: words, inline code, paragraph breaks, lists and fenced code.
  function* chunkStream(seed) {
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
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
      const data = { type: 'snapshot', protocol, entries: entries(n), panel };
      await frames();
      const { ms, parts } = await firstPaint(data, 'snapshot');
      return { ms, parts, built: document.querySelectorAll('[role="article"]:not(.placeholder)').length, newestShown: newestShown() };
    },
    async scroll({ frames: count, step }) {
      const sc = scroller();
      await frames();
      for (let i = 0; i < count; i++) {
        await new Promise(requestAnimationFrame);
        performance.mark(`frame-${i}`);
        sc.scrollTop -= step;
      }
      await new Promise(requestAnimationFrame);
      performance.mark(`frame-${count}`);
      return { top: sc.scrollTop };
    },
    drained,
    async openHistory(first) {
      const paint = await firstPaint(first, 'history');
      return { ms: paint.ms, parts: paint.parts, built: document.querySelectorAll('[role="article"]:not(.placeholder)').length, newestShown: newestShown() };
    },
    /** The replay's patches, then what the reattach ends with (the panel's fields), as the host posts them; resolves at the first frame painted after the last. */
    reattach({ ops, after }) {
      return firstPaint([{ type: 'patch', ops }, ...after], 'reattach');
    },
    /** Every entry the panel holds, once the last snapshot's older parts are in. */
    async settled() {
      await drained();
      const keys = app().transcript.entries.map((e) => e.key);
      return { count: keys.length, unique: new Set(keys).size, newestShown: newestShown() };
    },
    async buildAll(n) {
      window.__host.send({ type: 'snapshot', protocol, entries: entries(n), panel });
      await frames();
      const t0 = performance.now();
      for (const v of app().transcript.views) app().transcript.build(v);
      void document.body.offsetHeight;
      return { ms: performance.now() - t0 };
    },
    /**
     * The streamed patches, made ahead so that `stream` times only what the panel does with them: one
     * `appendText` per ~16 ms frame coalescing `perFrame` chunks (as PatchBatcher does), `messages` answers.
     */
    prepareStream({ chunks, messages, perFrame }) {
      const enc = new TextEncoder();
      const perMessage = chunks / messages;
      const posts = [];
      const expected = [];
      let postedBytes = 0;
      let textBytes = 0;
      for (let m = 0; m < messages; m++) {
        const key = `a${m}`;
        const gen = chunkStream(m + 1);
        let text = '';
        posts.push({ type: 'patch', ops: [{ op: 'insert', index: 1 + m, entry: msg('agent_message', key, '', m) }] });
        for (let c = 0; c < perMessage; c += perFrame) {
          let piece = '';
          for (let k = 0; k < perFrame; k++) piece += gen.next().value;
          text += piece;
          textBytes += enc.encode(piece).length;
          // The entry by its handle: the snapshot's one entry is 0, each insert takes the next (wire.ts).
          posts.push({ type: 'patch', ops: [{ op: 'appendText', h: 1 + m, text: piece }] });
        }
        expected.push([key, text]);
      }
      for (const p of posts) postedBytes += JSON.stringify(p).length;
      window.__bench.streamPlan = { posts, expected, postedBytes, textBytes, frames: posts.length - messages };
    },
    async stream() {
      const { posts, expected, postedBytes, textBytes, frames: frameCount } = window.__bench.streamPlan;
      window.__host.send({ type: 'snapshot', protocol, entries: [msg('user_message', 'u0', 'Explain the store.', 0)], panel: { ...panel, turn: 'busy' } });
      await frames();
      performance.mark('apply-start');
      const t0 = performance.now();
      for (const p of posts) {
        window.__host.send(p);
        // Each frame drawn (as a frame callback would).
        if (p.ops[0].op === 'appendText') app().flush();
      }
      const ms = performance.now() - t0;
      performance.mark('apply-end');
      const entriesNow = app().transcript.entries;
      const ok = expected.every(([k, t]) => entriesNow.find((e) => e.key === k)?.content[0]?.text === t);
      return { ms, frames: frameCount, postedBytes, textBytes, ok };
    },
    /**
     * One round of a fixed DOM workload, the calibration the webview figures are divided by: 2,000
     * paragraphs of the transcript's own text inserted as plain text nodes, laid out, removed.
     */
    calibrate(round) {
      performance.mark(`cal-${round}-start`);
      const box = document.createElement('div');
      for (let k = 0; k < 2000; k++) {
        const p = document.createElement('p');
        p.textContent = answer(k);
        box.append(p);
      }
      document.body.append(box);
      void box.offsetHeight;
      box.remove();
      performance.mark(`cal-${round}-end`);
    },
    /**
     * Settles (two frames and a quiet second), then marks `idle-<i>-start` and, `ms` later, `idle-<i>-end`
     * for each of `windows` windows back to back: one timer of the bench's own in each, and nothing from the
     * bench driving the page.
     */
    async idle(ms, windows) {
      await drained();
      await frames();
      await new Promise((r) => setTimeout(r, 1000));
      for (let i = 0; i < windows; i++) {
        performance.mark(`idle-${i}-start`);
        await new Promise((r) => setTimeout(r, ms));
        performance.mark(`idle-${i}-end`);
      }
    },
    /**
     * Posts as the host made them (bench/lib/pacedPosts.ts): `first` (the snapshot) at once, then each of
     * `timed` at its time (a 16 ms timer, as the host's frames; a structured clone each, as VS Code delivers
     * them). Marks `<name>-start`/`<name>-end` (after the last post is painted); `ok`: the answer shown is
     * `markdown`.
     */
    timed({ name, first, timed, markdown }) {
      window.__host.send(first);
      return new Promise((resolve) => {
        let next = 0;
        performance.mark(`${name}-start`);
        const t0 = performance.now();
        const timer = setInterval(() => {
          const now = performance.now() - t0;
          while (next < timed.length && timed[next].t <= now) window.postMessage(timed[next++].m, '*');
          if (next < timed.length) return;
          clearInterval(timer);
          painted().then(() => {
            performance.mark(`${name}-end`);
            const entry = app().transcript.entries.find((e) => e.kind === 'agent_message');
            const shown = (entry?.content ?? []).map((b) => b.text ?? '').join('');
            resolve({ ms: performance.now() - t0, ok: shown === markdown });
          });
        }, 16);
      });
    },
    /**
     * An answer streamed at a person's reading pace: `markdown` cut into `pieceBytes`-character chunks sent
     * at `perSecond`, the chunks due in each ~16 ms host frame coalesced into one appendText and posted
     * (a structured clone, as VS Code delivers it). Marks `<name>-start`/`<name>-end`; returns the text
     * bytes sent by each whole second, for the CPU per streamed KB.
     */
    paced({ name, markdown, pieceBytes, perSecond }) {
      const pieces = [];
      for (let i = 0; i < markdown.length; i += pieceBytes) pieces.push(markdown.slice(i, i + pieceBytes));
      window.__host.send({ type: 'snapshot', protocol, entries: [msg('user_message', 'u0', 'Explain the store.', 0)], panel: { ...panel, turn: 'busy' } });
      window.__host.send({ type: 'patch', ops: [{ op: 'insert', index: 1, entry: msg('agent_message', 'a0', '', 0) }] });
      return new Promise((resolve) => {
        let sent = 0;
        let bytes = 0;
        const bySecond = [];
        performance.mark(`${name}-start`);
        const t0 = performance.now();
        const timer = setInterval(() => {
          const elapsed = performance.now() - t0;
          const due = Math.min(pieces.length, Math.floor((elapsed * perSecond) / 1000));
          if (due > sent) {
            const text = pieces.slice(sent, due).join('');
            bytes += text.length;
            sent = due;
            window.postMessage({ type: 'patch', ops: [{ op: 'appendText', h: 1, text }] }, '*');
          }
          while (bySecond.length < Math.floor(elapsed / 1000)) bySecond.push(bytes);
          if (sent < pieces.length) return;
          clearInterval(timer);
          // The last chunk drawn, then done.
          painted().then(() => {
            performance.mark(`${name}-end`);
            bySecond.push(bytes);
            const entry = app().transcript.entries.find((e) => e.key === 'a0');
            resolve({ bySecond, bytes, ms: performance.now() - t0, ok: entry?.content[0]?.text === markdown });
          });
        }, 16);
      });
    },
  };
}
