// Compares two V8 heap snapshots (.heapsnapshot, e.g. the soak benchmark's test-results/soak/probe/
// host-hour-1.heapsnapshot and host-hour-N.heapsnapshot): which kinds of object grew, by count and by
// self size, biggest growth first. For a closer look, load both in Chrome DevTools' Memory tab and pick
// the Comparison view.
//   node scripts/heap-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [TOP]
import { readFileSync } from 'node:fs';

/** Count and self size per constructor (objects, closures, arrays...) and per kind for the rest. */
function summary(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snap.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byName = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? `${snap.strings[snap.nodes[i + nameAt]]} (${type})` : `(${type})`;
    const e = byName.get(name) ?? { count: 0, size: 0 };
    e.count++;
    e.size += snap.nodes[i + sizeAt];
    byName.set(name, e);
  }
  return byName;
}

const [before, after, top = '25'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node scripts/heap-diff.mjs BEFORE.heapsnapshot AFTER.heapsnapshot [TOP]');
  process.exit(2);
}
const a = summary(before);
const b = summary(after);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((name) => {
  const x = a.get(name) ?? { count: 0, size: 0 };
  const y = b.get(name) ?? { count: 0, size: 0 };
  return { name, count: y.count - x.count, size: y.size - x.size, after: y.size };
});
const total = (m) => [...m.values()].reduce((n, e) => n + e.size, 0);
console.log(`self size: ${(total(a) / 2 ** 20).toFixed(1)} MB -> ${(total(b) / 2 ** 20).toFixed(1)} MB`);
console.log('growth by self size (KB)   count   what');
for (const r of rows.sort((p, q) => q.size - p.size).slice(0, Number(top))) console.log(`${(r.size / 1024).toFixed(1).padStart(22)}  ${String(r.count).padStart(6)}   ${r.name}`);
