/**
 * Downloads one agent archive to a file, checking it on the way: never more than a limit, exactly the
 * length the server announced, and the registry's SHA-256 when it gives one. A file that fails a check is
 * deleted; the caller gets an error that says which check failed.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorText } from '../../common/util/errors';

/** Agent binaries are tens of megabytes; a limit keeps a wrong URL from filling the disk. */
const MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;

export interface DownloadOptions {
  readonly url: string;
  readonly file: string;
  readonly fetch: typeof fetch;
  /** Hex SHA-256 the archive must have, when the registry gives one. */
  readonly sha256?: string;
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  /** Bytes so far and the announced total (when known), for a progress bar. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
}

class DownloadError extends Error {}

export async function downloadArchive(o: DownloadOptions): Promise<{ readonly bytes: number; readonly sha256: string }> {
  const max = o.maxBytes ?? MAX_ARCHIVE_BYTES;
  const res = await o.fetch(o.url, o.signal ? { signal: o.signal } : {});
  if (!res.ok || !res.body) throw new DownloadError(`${o.url}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  // fetch decodes a Content-Encoding, and then Content-Length counts the encoded bytes: no length check.
  const announced = res.headers.get('content-encoding') ? undefined : optionalNumber(res.headers.get('content-length'));
  if (announced !== undefined && announced > max) throw new DownloadError(`${o.url} is ${announced} bytes, more than the limit of ${max}`);

  const hash = createHash('sha256');
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > max) return done(new DownloadError(`${o.url} is more than the limit of ${max} bytes`));
      hash.update(chunk);
      o.onProgress?.(received, announced);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), count, createWriteStream(o.file), o.signal ? { signal: o.signal } : {});
    if (announced !== undefined && received !== announced) throw new DownloadError(`size mismatch: ${received} bytes received, the server announced ${announced}`);
    const sha256 = hash.digest('hex');
    if (o.sha256 && sha256 !== o.sha256.toLowerCase()) throw new DownloadError(`checksum mismatch: SHA-256 ${sha256}, the registry says ${o.sha256.toLowerCase()}`);
    return { bytes: received, sha256 };
  } catch (e) {
    await rm(o.file, { force: true });
    if (e instanceof DownloadError) throw e;
    if (o.signal?.aborted) throw new DownloadError('the download was cancelled');
    // fetch reports a connection lost midway as a bare "terminated".
    throw new DownloadError(`the download of ${o.url} broke off after ${received} bytes (${errorText(e)})`);
  }
}

/**
 * The archive's size as the server announces it to a HEAD request (redirects followed), for the consent
 * dialog; undefined when the server does not say or cannot be reached (the download itself says why).
 */
export async function announcedSize(url: string, fetchFn: typeof fetch, signal?: AbortSignal): Promise<number | undefined> {
  try {
    const res = await fetchFn(url, { method: 'HEAD', ...(signal ? { signal } : {}) });
    if (!res.ok || res.headers.get('content-encoding')) return undefined;
    return optionalNumber(res.headers.get('content-length'));
  } catch {
    return undefined;
  }
}

function optionalNumber(s: string | null): number | undefined {
  if (s === null || !/^\d+$/.test(s.trim())) return undefined;
  return Number(s);
}
