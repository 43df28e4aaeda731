// Waiting for a webview's frame in the workbench page, for the benches that time a first paint.

/** How often the frames are polled: the resolution of a first-paint figure. */
export const POLL_MS = 25;

/**
 * The first frame of `page` (any webview) for which `test` (run in the frame, with `arg`) is true, polled
 * every POLL_MS; throws naming `what` after `timeoutMs`.
 */
export async function whenFrame(page, what, test, arg, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      if (f.isDetached()) continue;
      if (await f.evaluate(test, arg).catch(() => false)) return f;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(POLL_MS);
  }
}
