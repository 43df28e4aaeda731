/**
 * Work the highlighter brings in the middle of a streaming answer (registering its grammars, colouring the
 * blocks drawn before it came: a grammar's first use compiles it) is done in the page's idle time, one
 * step after another within STEP_MS of each idle period, so it never adds more than one step to a frame.
 * In one task, loading took 33 ms (webview.fourPanelsFrameMaxMs, in a panel streaming beside three others).
 */
const STEP_MS = 4;
/** A panel out of view, or one kept busy, may get no idle time: its steps go on at least this often. */
const TIMEOUT_MS = 1000;

/** Runs `step` while `more()`, a few steps per idle period, then `done`. */
export function inIdleSteps(more: () => boolean, step: () => void, done?: () => void): void {
  const run = (deadline: IdleDeadline): void => {
    // Called at its timeout, no idle time is left (timeRemaining is 0): a step's worth anyway, or a busy
    // panel would register one grammar, and colour one block, a second.
    const until = performance.now() + (deadline.didTimeout ? STEP_MS : Math.min(STEP_MS, deadline.timeRemaining()));
    do if (more()) step();
    while (more() && performance.now() < until);
    if (more()) requestIdleCallback(run, { timeout: TIMEOUT_MS });
    else done?.();
  };
  requestIdleCallback(run, { timeout: TIMEOUT_MS });
}
