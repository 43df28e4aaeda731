/**
 * The CLI's `--state` file: one writer at a time (an exclusive lock file beside it, holding the pid; a
 * lock whose process is gone is taken over), never overwritten when it came from a newer version, and
 * never rewritten after a part of it could not be read without keeping the original beside it.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { MessageStore, STORE_FORMAT_VERSION } from '../../common/store';
import { errorText } from '../../common/util/errors';

export class StateFileError extends Error {}

export interface LoadedState {
  readonly store: MessageStore;
  /** What could not be read (the file is backed up before it is written). */
  readonly problems: readonly string[];
  /** Writes the store back (atomically) and lets go of the lock. */
  save(store: MessageStore): string | undefined;
  release(): void;
}

/** Takes the lock on `file`; throws StateFileError when another live process holds it. */
function lock(file: string): () => void {
  const lockFile = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new StateFileError(`cannot lock ${file}: ${errorText(e)}`);
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && alive(holder))
        throw new StateFileError(`${file} is in use by process ${holder} (lock file ${lockFile}); try again when it is done`);
      // Stale: its process is gone.
      unlinkSync(lockFile);
    }
  }
  throw new StateFileError(`cannot lock ${file}: the lock file ${lockFile} keeps coming back`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function loadState(file: string): LoadedState {
  const release = lock(file);
  try {
    let store = new MessageStore();
    const problems: string[] = [];
    if (existsSync(file)) {
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new StateFileError(`cannot read state file ${file}: ${errorText(err)}`);
      }
      const version = typeof data === 'object' && data !== null ? (data as { version?: unknown }).version : undefined;
      if (typeof version === 'number' && version > STORE_FORMAT_VERSION) {
        throw new StateFileError(`state file ${file} is from a newer version (format ${version}; this one reads ${STORE_FORMAT_VERSION}): it is left as it is`);
      }
      const restored = MessageStore.fromJSON(data);
      store = restored.store;
      problems.push(...restored.diagnostics.map((d) => d.message));
    }
    return {
      store,
      problems,
      save: (s) => {
        let backup: string | undefined;
        if (problems.length > 0 && existsSync(file)) {
          backup = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
          copyFileSync(file, backup);
        }
        // Write-then-rename so an interrupted run never leaves a half-written state file.
        const tmp = `${file}.tmp-${process.pid}`;
        writeFileSync(tmp, JSON.stringify(s.toJSON()));
        renameSync(tmp, file);
        release();
        return backup;
      },
      release,
    };
  } catch (e) {
    release();
    throw e;
  }
}
