/**
 * `cli run`'s stdout, coalesced: a streaming agent sends thousands of small chunks a second, and writing
 * each on its own costs a system call apiece (stdout is synchronous on a pipe or file; a profile of a
 * 100,000-chunk turn spent a sixth of its time there). What is written in one turn of the event loop goes
 * out in one write at its end (or at once past HIGH_WATER). `flush` writes what waits now: called before
 * anything else reaches the terminal (stderr, a question), so the order of what the user sees is kept.
 */
const HIGH_WATER = 64 * 1024;

export interface CoalescedWrites {
  readonly write: (s: string) => void;
  readonly flush: () => void;
}

export function coalescedWrites(write: (s: string) => void): CoalescedWrites {
  let buffered = '';
  let scheduled = false;
  const flush = (): void => {
    if (buffered === '') return;
    const s = buffered;
    buffered = '';
    write(s);
  };
  return {
    write: (s) => {
      buffered += s;
      if (buffered.length >= HIGH_WATER) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
    },
    flush,
  };
}
