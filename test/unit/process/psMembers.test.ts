/**
 * The watchdog's tree discovery on macOS, from `ps` output in macOS's format (BSD ps: `-E` appends the
 * environment of this user's processes to the command; right-aligned pid and pgid, no header with `=`),
 * run through the very source text the watchdog evaluates, with the platform and `ps` injected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PS_MEMBERS_SOURCE, type PsMembers, type RunPs } from '../../../src/node/process/psMembers';
import { WATCHDOG_SOURCE } from '../../../src/node/watchdog';

/** The function as the watchdog gets it: evaluated from its text in global scope, so it can use nothing from this module. */
const psMembers = new Function(`return (${PS_MEMBERS_SOURCE});`)() as PsMembers;

const WATCHDOG = 6001;
const MARK = 'ACP_CHAT_TREE=k3q9x';
const ENV = 'TMPDIR=/var/folders/7x/q1w2e3r4t5_y6u7i8o9p0/T/ HOME=/Users/ana SHELL=/bin/zsh PATH=/opt/homebrew/bin:/usr/bin:/bin LOGNAME=ana';

// Lines as `ps -axww -E -o pid=,pgid=,stat=,command=` prints them on macOS.
const PS_OUTPUT = [
  '    1     1 Ss   /sbin/launchd',
  '  412   412 Ss   /usr/libexec/UserEventAgent (System)',
  ` 5120  5120 S    /Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Plugin).app/Contents/MacOS/Code Helper (Plugin) --type=utility --utility-sub-type=node.mojom.NodeService ${ENV}`,
  // The watchdog itself: its config (with the token, but not as an environment entry) is in its arguments.
  ` 6001  6001 Ss   /Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Plugin).app/Contents/MacOS/Code Helper (Plugin) -e 'use strict'; {"graceMs":300,"treeToken":"k3q9x"} claude --acp ELECTRON_RUN_AS_NODE=1 ${ENV}`,
  ` 6002  6001 S    node /opt/homebrew/bin/claude --acp ${MARK} ${ENV}`,
  ` 6010  6001 S+   /bin/sleep 1000 ${ENV} ${MARK}`,
  // Left the group with setsid: found by the token, wherever it is among the variables, last one included.
  ` 6020  6020 Ss   /bin/sleep 2000 ${MARK} ${ENV}`,
  ` 6021  6021 Ss   /usr/bin/python3 -m http.server ${ENV} ${MARK}`,
  // Another tree's token that starts with ours, a command that only mentions ours in an argument, a zombie.
  ` 6030  6030 Ss   /bin/sleep 3000 ${MARK}0 ${ENV}`,
  ` 6031  6031 S    grep ${MARK}x ${ENV}`,
  ' 6040  6001 Z    (sleep)',
  // Another user's process: ps shows no environment for it.
  '  350   350 Ss   /usr/sbin/cfprefsd daemon',
  // The ps that printed this, in the watchdog's group.
  ` 6050  6001 R    ps -axww -E -o pid=,pgid=,stat=,command= ${ENV}`,
  '',
].join('\n');

describe('the watchdog finds its tree on macOS with ps', () => {
  it("finds the group's live members and the detached processes that carry the token", () => {
    const calls: (readonly string[])[] = [];
    const runPs: RunPs = (args) => {
      calls.push(args);
      return { pid: 6050, stdout: PS_OUTPUT };
    };
    assert.deepEqual(psMembers('darwin', WATCHDOG, MARK, runPs), { inGroup: [6002, 6010], strays: [6020, 6021] });
    assert.deepEqual(calls, [['-axww', '-E', '-o', 'pid=,pgid=,stat=,command=']]);
  });

  it('is unknown (null) when ps fails, and elsewhere than macOS ps is not run', () => {
    const failing: RunPs = () => {
      throw new Error('spawnSync ps ENOENT');
    };
    assert.equal(psMembers('darwin', WATCHDOG, MARK, failing), null);
    for (const platform of ['linux', 'win32', 'freebsd']) assert.equal(psMembers(platform, WATCHDOG, MARK, failing), null, platform);
  });

  it('an empty tree is empty, not unknown: the watchdog stops waiting', () => {
    const runPs: RunPs = () => ({ pid: 7001, stdout: `    1     1 Ss   /sbin/launchd\n ${WATCHDOG}  ${WATCHDOG} Ss   node -e x\n 7001  ${WATCHDOG} R    ps -axww\n` });
    assert.deepEqual(psMembers('darwin', WATCHDOG, MARK, runPs), { inGroup: [], strays: [] });
  });

  it('the watchdog carries this source and uses it on macOS', () => {
    assert.ok(WATCHDOG_SOURCE.includes(PS_MEMBERS_SOURCE));
    assert.match(WATCHDOG_SOURCE, /if \(process\.platform === 'darwin'\) return psMembers\(process\.platform, process\.pid, mark, runPs\);/);
  });
});
