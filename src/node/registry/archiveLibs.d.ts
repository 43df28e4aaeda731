// The parts of yauzl and tar-stream that unpack.ts uses (neither package ships its own types).
declare module 'yauzl' {
  import type { Readable } from 'node:stream';
  export interface Entry {
    readonly fileName: string;
    readonly versionMadeBy: number;
    readonly externalFileAttributes: number;
    readonly uncompressedSize: number;
  }
  export interface ZipFile {
    eachEntry(): AsyncIterableIterator<Entry>;
    openReadStreamPromise(entry: Entry): Promise<Readable>;
    close(): void;
  }
  export function openPromise(path: string, options?: { strictFileNames?: boolean; validateEntrySizes?: boolean; autoClose?: boolean }): Promise<ZipFile>;
}

declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';
  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    type?: 'file' | 'link' | 'symlink' | 'directory' | 'character-device' | 'block-device' | 'fifo' | 'contiguous-file' | 'pax-header' | 'pax-global-header' | 'gnu-long-link-path' | 'gnu-long-path' | null;
    linkname?: string | null;
  }
  export interface Extract extends Writable {
    on(event: 'entry', listener: (header: Headers, stream: Readable, next: (error?: unknown) => void) => void): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  export interface Pack extends Readable {
    entry(header: Headers, content?: string | Buffer, callback?: (error?: unknown) => void): Writable;
    finalize(): void;
  }
  export function extract(): Extract;
  export function pack(): Pack;
}
