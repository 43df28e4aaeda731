// Placeholder until the message store lands: see issue 3.
export const usage = 'reduce [--state FILE] CAPTURE.jsonl   reduce a {dir,msg} capture to sessions and diagnostics (JSON)';
export async function main(_args: string[]): Promise<number> {
  process.stderr.write('reduce: not implemented yet\n');
  return 1;
}
