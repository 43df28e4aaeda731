/**
 * `node dist/cli.js <command>`: the headless side of ACP Chat, built from the same store and client
 * code as the extension.
 */
import { terminalSafe } from '../common/untrusted';
import { wantsHelp } from './cli/args';
import { main as checkMain, usage as checkUsage } from './cli/check';
import { main as exportV1Main, usage as exportV1Usage } from './cli/exportV1';
import { main as reduceMain, usage as reduceUsage } from './cli/reduce';
import { main as runMain, usage as runUsage } from './cli/run';

const commands: Record<string, { main: (args: string[]) => Promise<number>; usage: string }> = {
  reduce: { main: reduceMain, usage: reduceUsage },
  check: { main: checkMain, usage: checkUsage },
  run: { main: runMain, usage: runUsage },
  'export-v1': { main: exportV1Main, usage: exportV1Usage },
};

function help(): string {
  return [
    'ACP Chat command-line tools',
    '',
    'Usage: node dist/cli.js <command> [options]',
    '',
    'Commands:',
    ...Object.values(commands).map((c) => `  ${c.usage.split('\n').join('\n  ')}`),
    '',
    'Options:',
    '  -h, --help   show this help',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(help() + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  if (wantsHelp(rest)) {
    process.stdout.write(command.usage + '\n');
    return 0;
  }
  return command.main(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // An unexpected error can carry agent text: print it as inert as everything else.
    process.stderr.write(terminalSafe(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`));
    process.exitCode = 1;
  },
);
