// Which config option is the session's mode: by category, or (categories being optional) by offering
// exactly the legacy modes' ids. Claude Code sends both; one picker must remain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modeConfigOption, modeFromConfig } from '../../src/common/modes';
import type { ConfigOption } from '../../src/common/store/model';

const modes = [
  { id: 'default', name: 'Default' },
  { id: 'plan', name: 'Plan' },
];
const select = (id: string, values: string[], extra: Record<string, unknown> = {}): ConfigOption => ({
  id,
  name: id,
  type: 'select',
  currentValue: values[0],
  options: values.map((value) => ({ value, name: value })),
  ...extra,
});

test('a config option of category mode is the mode, whatever it offers', () => {
  const o = select('perm', ['x', 'y'], { category: 'mode' });
  assert.equal(modeConfigOption([select('model', ['a']), o], modes), o);
  assert.equal(modeConfigOption([o], []), o);
});

test('without a category, a select offering exactly the modes is the mode; other selects are not', () => {
  const same = select('mode', ['plan', 'default']);
  assert.equal(modeConfigOption([select('model', ['default', 'fast']), same], modes), same);
  assert.equal(modeConfigOption([select('model', ['default'])], modes), undefined);
  assert.equal(modeConfigOption([same], []), undefined, 'no legacy modes: nothing to compare with');
  const grouped: ConfigOption = {
    id: 'g',
    name: 'g',
    type: 'select',
    currentValue: 'plan',
    options: [
      { name: 'A', options: [{ value: 'default', name: 'D' }] },
      { name: 'B', options: [{ value: 'plan', name: 'P' }] },
    ],
  };
  assert.equal(modeConfigOption([grouped], modes), grouped);
});

test('modeFromConfig reads the current value', () => {
  assert.equal(modeFromConfig([select('mode', ['default', 'plan'], { category: 'mode', currentValue: 'plan' })], modes), 'plan');
  assert.equal(modeFromConfig([{ id: 'b', name: 'b', type: 'boolean', currentValue: true, category: 'mode' }], modes), undefined);
  assert.equal(modeFromConfig([], modes), undefined);
});
