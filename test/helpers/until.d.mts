// Types of until.mjs for the TypeScript tests that import it.
type NotYet = undefined | null | false | '' | 0;
/** Waits until `fn` returns something truthy (see until.mjs): resolves with it, or fails after `ms` naming `what`. */
export function until<T>(fn: () => Promise<T | NotYet>, what: string | (() => string | Promise<string>), ms?: number): Promise<T>;
export function until<T>(fn: () => T | NotYet, what: string | (() => string | Promise<string>), ms?: number): Promise<T>;
