/** The line endings of a file an agent writes over, from its first 64 KiB; only a regular file is opened. */
import { open, stat } from 'node:fs/promises';
import { inFileEol } from '../../common/changes/eol';

const SAMPLE_BYTES = 64 * 1024;

/** `content` in the line endings of the file at `file` (as given when there is no regular file there). */
export async function keepLineEndings(file: string, content: string): Promise<string> {
  const sample = await stat(file).then(
    async (st) => {
      if (!st.isFile()) return null;
      const h = await open(file, 'r');
      try {
        const buf = Buffer.alloc(Math.min(SAMPLE_BYTES, st.size));
        const { bytesRead } = await h.read(buf, 0, buf.length, 0);
        return buf.subarray(0, bytesRead).toString('latin1');
      } finally {
        await h.close();
      }
    },
    () => null,
  );
  return inFileEol(sample, content);
}
