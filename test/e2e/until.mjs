// The one way the .mjs stages (code-server UI checks, the real-agent panel) wait: for a fact, not a time.
// Polls `fn` (sync or async; a throw counts as "not yet") every `everyMs` until it returns something truthy,
// and resolves with it. The deadline only turns a hang into a failure naming what was awaited: `what` is
// its name, or a function giving the failure's message from the last state seen (called once, at the
// deadline). The TypeScript tests have the same helper in test/unit/helpers/until.ts.
export async function until(what, fn, timeoutMs = 30_000, everyMs = 250) {
  const start = Date.now();
  for (;;) {
    const v = await Promise.resolve()
      .then(fn)
      .catch(() => undefined);
    if (v) return v;
    if (Date.now() - start > timeoutMs) {
      if (typeof what === 'function') throw new Error(`${await what()} (after ${timeoutMs} ms)`);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
