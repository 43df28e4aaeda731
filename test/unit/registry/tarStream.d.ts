// The part of tar-stream the registry fixtures use to build test archives (the package ships no types).
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';
  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    type?: 'file' | 'link' | 'symlink' | 'directory';
    linkname?: string | null;
  }
  export interface Pack extends Readable {
    entry(header: Headers, content?: string | Buffer, callback?: (error?: unknown) => void): Writable;
    finalize(): void;
  }
  export function pack(): Pack;
}
