/** One way to turn a thrown value or a zod failure into the text a user or a log line reads. */

/** The message of a thrown value (an Error's message, anything else as a string). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A zod error as `path: message` (the path left out at the top level). By default only the first issue:
 * one readable reason is what a diagnostic line wants; `all` joins every issue with "; ".
 */
export function issueText(error: { readonly issues: readonly Issue[] }, all = false): string {
  const one = (i: Issue) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message);
  if (error.issues.length === 0) return 'invalid';
  return all ? error.issues.map(one).join('; ') : one(error.issues[0]!);
}
