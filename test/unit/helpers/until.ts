/**
 * Waits for a fact, not for a time: polls `f` every few milliseconds until it returns a value (anything but
 * undefined/false). The deadline only turns a hang into a readable failure; it is never what the test waits for.
 */
export async function until<T>(f: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
