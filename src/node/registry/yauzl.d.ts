// The part of yauzl that unpack.ts uses (the package ships no types).
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
