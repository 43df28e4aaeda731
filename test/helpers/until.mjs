// The one way a test waits: for a fact, not for a time. Used by every kind of test (unit, extension host,
// browser, the code-server UI stages, the real-agent panel) and the benches.
//
// Polls `fn` (sync or async) until it returns something truthy and resolves with it. A throw counts as
// "not yet" (a page in the middle of a navigation, a view not built yet); the failure names the last one.
// The poll starts at 2 ms (a unit test's fact is usually there at once) and backs off to every 100 ms (a
// workbench or a browser page is asked less often). The deadline `ms` only turns a hang into a readable
// failure; it is never what the test waits for. `what` names what was awaited, or is a function giving the
// failure's message from the state at the deadline (called once).
export async function until(fn, what, ms = 10_000) {
  const start = Date.now();
  let every = 2;
  let lastError;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() - start > ms) {
      const said = typeof what === 'function' ? await what() : `timed out after ${ms} ms waiting for ${what}`;
      const why = lastError === undefined ? '' : ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(typeof what === 'function' ? `${said} (after ${ms} ms)${why}` : `${said}${why}`);
    }
    await new Promise((r) => setTimeout(r, every));
    every = Math.min(100, every * 2);
  }
}
