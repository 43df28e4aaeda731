// Placeholder until the ACP client lands: see issue 4.
export const usage = 'run [--cwd DIR] [--approve all|none] [--capture FILE] [--protocol 1|2] [--mode ID] --prompt TEXT -- AGENT_CMD [ARGS...]';
export async function main(_args: string[]): Promise<number> {
  process.stderr.write('run: not implemented yet\n');
  return 1;
}
