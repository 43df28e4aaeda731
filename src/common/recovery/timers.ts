/**
 * The clock and timers the recovery logic runs on, injected so that tests drive time by hand and the
 * decisions stay pure (no Node or DOM timer types leak into src/common).
 */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): TimerHandle;
}

export interface TimerHandle {
  cancel(): void;
}

/** The real clock (globalThis timers exist in Node, the extension host and the webview alike). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const t = globalThis.setTimeout(run, ms);
    return { cancel: () => globalThis.clearTimeout(t) };
  },
};
