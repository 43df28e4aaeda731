/**
 * One chat's saved terminal views (`<chat>.terminals.json`, see src/common/savedTerminals.ts). Output
 * streams in many small chunks, so writes are batched: a change marks the file dirty and it is written
 * (temp file + rename: a crash leaves the old views or the new ones) a moment later, or at once on
 * `flush`. The views are read only when written, so a chunk costs nothing but a flag.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { terminalsToJSON, type SavedTerminal } from '../../common/savedTerminals';
import { errorText } from '../../common/util/errors';

/** How long output may go unsaved while it streams (a reload flushes first). */
const WRITE_DELAY_MS = 1000;

export class TerminalViewsFile {
  private dirty: (() => readonly SavedTerminal[]) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Writes, in order. */
  private writes: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(private readonly file: string, private readonly log: (message: string) => void) {}

  /** The file's JSON (undefined when there is none); unreadable JSON is a problem, not an error. */
  static async read(file: string): Promise<{ raw: unknown; problem: string | null }> {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return { raw: undefined, problem: null };
    try {
      return { raw: JSON.parse(text) as unknown, problem: null };
    } catch (e) {
      return { raw: undefined, problem: `the saved terminal views are not JSON (${errorText(e)}); started empty` };
    }
  }

  /** The views changed: they are read through `saved` when written. */
  changed(saved: () => readonly SavedTerminal[]): void {
    if (this.disposed) return;
    this.dirty = saved;
    this.timer ??= setTimeout(() => void this.flush(), WRITE_DELAY_MS);
    // Never keeps a process (the CLI, a test) alive; a reload flushes before it goes.
    this.timer.unref?.();
  }

  /** Writes pending views now; resolves when every write so far is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const saved = this.dirty;
    this.dirty = undefined;
    if (saved) {
      const text = JSON.stringify(terminalsToJSON(saved()));
      this.writes = this.writes.then(async () => {
        try {
          await mkdir(path.dirname(this.file), { recursive: true });
          await writeFile(`${this.file}.tmp`, text);
          await rename(`${this.file}.tmp`, this.file);
        } catch (e) {
          this.log(`could not save the terminal views: ${errorText(e)}`);
        }
      });
    }
    return this.writes;
  }

  /** Stops saving and deletes the file (the chat was removed). */
  async remove(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty = undefined;
    await this.writes;
    await Promise.all([this.file, `${this.file}.tmp`].map((f) => rm(f, { force: true }).catch((e: unknown) => this.log(`could not delete ${f}: ${errorText(e)}`))));
  }
}
