/**
 * The one way a test waits: for a fact, not for a time. Polls `f` every `everyMs` until it returns a value
 * (anything but undefined/false) and resolves with it. The deadline `ms` only turns a hang into a readable
 * failure naming `what` was awaited; it is never what the test waits for. Used by the unit tests, the
 * extension-host tests (test/host/util.ts) and the benches; the .mjs stages have test/e2e/until.mjs.
 */
export async function until<T>(f: () => T | undefined | false, what: string, ms = 10_000, everyMs = 2): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
