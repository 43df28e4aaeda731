/** cross-spawn's cmd.exe quoting (qntm.org/cmd), which its own `spawn` applies only on the running platform. */
declare module 'cross-spawn/lib/util/escape' {
  export function argument(argument: string, doubleEscapeMetaChars: boolean): string;
}
