/**
 * Capture file writer: one `{"dir","msg","t_ms"}` record per JSON-RPC message (the format of
 * ../shared/conformance/README.md); non-message events are `{"dir":"note",…}` records, which readers skip.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';

export class CaptureWriter {
  private readonly out: WriteStream;
  private readonly t0 = Date.now();
  private closed = false;

  constructor(file: string) {
    this.out = createWriteStream(file, { flags: 'w' });
  }

  message(dir: 'client->agent' | 'agent->client', msg: unknown): void {
    if (this.closed) return;
    this.out.write(JSON.stringify({ dir, msg, t_ms: Date.now() - this.t0 }) + '\n');
  }

  note(text: string, extra: Record<string, unknown> = {}): void {
    // Events after close (e.g. the agent's exit reported late) are dropped, not written after end.
    if (this.closed) return;
    this.out.write(JSON.stringify({ dir: 'note', text, t_ms: Date.now() - this.t0, ...extra }) + '\n');
  }

  close(): Promise<void> {
    this.closed = true;
    return new Promise((resolve) => this.out.end(resolve));
  }
}
