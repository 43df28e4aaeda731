// Reading a V8 CPU profile (.cpuprofile, as Chrome DevTools and the inspector's Profiler.stop give it):
// the functions that took the most time, and when a function first ran, for bench/firstPaintProfile.mjs.

/** Self and total time per function (name, file, line), in ms, biggest total first; only frames in files matching `only`. */
export function topFunctions(profile, { only = /./, limit = 12 } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const total = new Map();
  const key = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(id);
    if (!leaf) return;
    if (only.test(leaf.callFrame.url)) self.set(key(leaf), (self.get(key(leaf)) ?? 0) + dt);
    // Total: once per function per sample, however deep it recurses.
    const seen = new Set();
    for (let n = leaf; n; n = byId.get(parent.get(n.id))) {
      if (!only.test(n.callFrame.url)) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  return [...total.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([k, t]) => ({ fn: k, totalMs: Math.round(t * 10) / 10, selfMs: Math.round((self.get(k) ?? 0) * 10) / 10 }));
}

/** Ms from the profile's start to the first sample whose stack holds a function named `name` (undefined: never). */
export function firstCall(profile, name) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    for (let n = byId.get(profile.samples[i]); n; n = byId.get(parent.get(n.id))) if (n.callFrame.functionName === name) return t / 1000;
  }
  return undefined;
}
