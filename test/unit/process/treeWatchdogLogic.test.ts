/**
 * The tree watchdog's pure part, as the watchdog process runs it (its source evaluated on its own):
 * Windows listings in the form the CIM query prints (CRLF, a prompt or an error line in between), and
 * how the record of a tree grows and stays safe when Windows reuses pids.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
import { CIM_QUERY, TREE_LOGIC_SOURCE } from '../../../src/node/process/treeWatchdog';
import { supervisionFor, systemTool, treeWatchdogConfig } from '../../../src/node/process/treeWatch';

interface Entry {
  pid: number;
  ppid: number;
  start: string;
}
interface Tree {
  pid: number;
  seen: Map<number, string>;
  adopted: boolean;
  exited: boolean;
}
interface Logic {
  parseCimListing(text: string): Entry[];
  parseProcStat(pid: number, text: string): Entry | null;
  grow(tree: Tree, listing: Entry[], hostPid: number): number[];
}
const logic = vm.runInNewContext(`${TREE_LOGIC_SOURCE}\n({ parseCimListing, parseProcStat, grow })`) as Logic;
/** Copies out of the other realm (deepStrictEqual compares prototypes). */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

// FILETIMEs (100 ns since 1601): T0 is 2026-11-26 03:00 UTC; one second is 10^7.
const T0 = 134401356000000000n;
const at = (s: number) => String(T0 + BigInt(s) * 10_000_000n);
const HOST = 7420;
const tree = (pid: number): Tree => ({ pid, seen: new Map(), adopted: false, exited: false });
const entry = (pid: number, ppid: number, s: number): Entry => ({ pid, ppid, start: at(s) });

describe('tree watchdog: Windows listings', () => {
  it("reads the CIM query's lines through CRLF, a prompt, blank lines and an error", () => {
    const recorded = [
      '',
      `PS C:\\Users\\me> p 0 0 0`,
      `p 4 0 ${at(-90000)}`,
      `p 7420 6112 ${at(0)}   `,
      'Get-CimInstance : Access denied ',
      '    + CategoryInfo          : PermissionDenied: (Win32_Process:String) [Get-CimInstance], CimException',
      `p 8000 7420 ${at(5)}`,
      'p 12 x 3',
      '',
    ].join('\r\n');
    assert.deepEqual(plain(logic.parseCimListing(recorded)), [
      { pid: 0, ppid: 0, start: '0' },
      { pid: 4, ppid: 0, start: at(-90000) },
      { pid: 7420, ppid: 6112, start: at(0) },
      { pid: 8000, ppid: 7420, start: at(5) },
    ]);
  });

  it('asks for pid, parent pid and creation time, and ends each listing with a mark the command itself does not contain', () => {
    assert.match(CIM_QUERY, /Win32_Process -Property ProcessId,ParentProcessId,CreationDate/);
    assert.match(CIM_QUERY, /ToFileTimeUtc\(\)/);
    assert.ok(!CIM_QUERY.includes('acp-chat-listing-end'));
    assert.match(TREE_LOGIC_SOURCE, /"acp-chat-listing-end"/);
  });

  it('reads /proc stat lines, a command name with spaces and parentheses included, and skips zombies', () => {
    const fields = (state: string) => `${state} 1 42 42 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 98765 0 0`;
    assert.deepEqual(plain(logic.parseProcStat(43, `43 (a) b (c) ${fields('S')}`)), { pid: 43, ppid: 1, start: '98765' });
    assert.equal(logic.parseProcStat(44, `44 (z) ${fields('Z')}`), null);
  });
});

describe('tree watchdog: the record of a tree', () => {
  it("adopts the root as the host's child and records descendants down the chain", () => {
    const t = tree(8000);
    const l = [entry(HOST, 6112, 0), entry(8000, HOST, 5), entry(8100, 8000, 6), entry(8200, 8100, 7), entry(9999, 4, 1)];
    assert.deepEqual(plain(logic.grow(t, l, HOST)).sort(), [8000, 8100, 8200]);
    assert.deepEqual(plain([...t.seen.keys()]).sort(), [8000, 8100, 8200]);
    assert.deepEqual(plain(logic.grow(t, l, HOST)), []);
  });

  it('keeps a grandchild whose parent exited (seen alive with it before), and forgets the dead', () => {
    const t = tree(8000);
    logic.grow(t, [entry(8000, HOST, 5), entry(8100, 8000, 6), entry(8200, 8100, 7)], HOST);
    // The middle process exited: the grandchild keeps its dead parent's pid (Windows does not re-parent).
    assert.deepEqual(plain(logic.grow(t, [entry(8000, HOST, 5), entry(8200, 8100, 7)], HOST)), []);
    assert.deepEqual(plain([...t.seen.keys()]).sort(), [8000, 8200]);
    // The root exited too: what it left is still the tree's.
    logic.grow(t, [entry(8200, 8100, 7)], HOST);
    assert.deepEqual(plain([...t.seen.keys()]), [8200]);
  });

  it('never takes a reused pid: not a recorded one, nor a child older than its would-be parent', () => {
    const t = tree(8000);
    logic.grow(t, [entry(8000, HOST, 5), entry(8100, 8000, 6)], HOST);
    // 8100 exited and its pid went to an unrelated process, which has a child of its own.
    const l = [entry(8000, HOST, 5), entry(8100, 500, 60), entry(8300, 8100, 61)];
    assert.deepEqual(plain(logic.grow(t, l, HOST)), []);
    assert.deepEqual(plain([...t.seen.keys()]), [8000]);
    // A process older than the root, whose parent had the root's pid before: not the root's child.
    assert.deepEqual(plain(logic.grow(t, [entry(8000, HOST, 5), entry(8400, 8000, 2)], HOST)), []);
  });

  it("does not adopt a root that is not the host's child, or that the host saw exit", () => {
    const other = tree(8000);
    assert.deepEqual(plain(logic.grow(other, [entry(8000, 1234, 5)], HOST)), []);
    const gone = { ...tree(8000), exited: true };
    assert.deepEqual(plain(logic.grow(gone, [entry(8000, HOST, 5)], HOST)), []);
  });

  it('cannot follow a process orphaned before any listing saw its parent (only the OS could)', () => {
    const t = tree(8000);
    logic.grow(t, [entry(8000, HOST, 5)], HOST);
    assert.deepEqual(plain(logic.grow(t, [entry(8000, HOST, 5), entry(8600, 8150, 9)], HOST)), []);
  });
});

describe('tree watchdog: which one each platform gets', () => {
  it('Windows: one tree watchdog per host, listing through PowerShell and ending with taskkill, from System32', () => {
    const s = supervisionFor('win32');
    assert.equal(s.kind, 'tree');
    assert.equal(s.kind === 'tree' && s.trees, (supervisionFor('win32') as { trees: unknown }).trees, 'one per host');
    assert.deepEqual(treeWatchdogConfig('win32', { SYSTEMROOT: 'C:\\WINDOWS' }, 42), {
      hostPid: 42,
      lister: 'cim',
      killer: 'taskkill',
      intervalMs: 2000,
      powershell: 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      taskkill: 'C:\\WINDOWS\\System32\\taskkill.exe',
    });
    assert.equal(systemTool({}, 'taskkill.exe'), 'C:\\Windows\\System32\\taskkill.exe');
  });

  it('macOS and Linux: a watchdog per command, leading its process group', () => {
    assert.deepEqual(supervisionFor('darwin'), { kind: 'group' });
    assert.deepEqual(supervisionFor('linux'), { kind: 'group' });
  });
});
