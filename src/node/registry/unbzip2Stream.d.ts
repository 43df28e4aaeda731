// unbzip2-stream ships no types: it exports one function that returns a classic through-stream.
declare module 'unbzip2-stream' {
  import type { Duplex } from 'node:stream';
  function unbzip2Stream(): Duplex;
  export = unbzip2Stream;
}
