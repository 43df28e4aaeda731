/**
 * The line endings of a file an agent writes over, from its first 64 KiB, read from the handle the
 * checked write opened (`safeFs.writeChecked`): the file sampled is the file replaced.
 */
import type { FileHandle } from 'node:fs/promises';
import { inFileEol } from '../../common/changes/eol';

const SAMPLE_BYTES = 64 * 1024;

/** `content` in the line endings of the open file `existing` (as given when there is no file). */
export async function keepLineEndings(existing: FileHandle | null, content: string): Promise<string> {
  if (existing === null) return content;
  const buf = Buffer.alloc(SAMPLE_BYTES);
  const { bytesRead } = await existing.read(buf, 0, SAMPLE_BYTES, 0);
  return inFileEol(buf.subarray(0, bytesRead).toString('latin1'), content);
}
