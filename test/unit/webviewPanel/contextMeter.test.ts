// The context meter's words, levels and Compact command (src/common/webview/contextMeter.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactCommand, meterLevel, meterText } from '../../../src/common/webview/contextMeter';

const cmd = (name: string) => ({ name, description: '' });

test('the meter warns from 80 % and says nearly full from 95 %', () => {
  assert.equal(meterLevel({ used: 0, size: 0 }), 'ok');
  assert.equal(meterLevel({ used: 79_999, size: 100_000 }), 'ok');
  assert.equal(meterLevel({ used: 80_000, size: 100_000 }), 'warn');
  assert.equal(meterLevel({ used: 95_000, size: 100_000 }), 'full');
  assert.equal(meterLevel({ used: 120_000, size: 100_000 }), 'full');
});

test('its spoken text has the share, the tokens, the cost and the warning', () => {
  assert.equal(meterText({ used: 48_200, size: 200_000 }), '24% of the context used (48,200 of 200,000 tokens)');
  assert.equal(
    meterText({ used: 170_000, size: 200_000, cost: { amount: 0.4, currency: 'USD' } }),
    '85% of the context used (170,000 of 200,000 tokens); cost so far 0.40 USD; the context is filling up',
  );
  assert.match(meterText({ used: 199_000, size: 200_000 }), /nearly full: compact the conversation/);
  assert.equal(meterText({ used: 5, size: 0 }), '5 tokens in context');
});

test('Compact uses the command the agent offers: compact (Claude, Codex), else compress (Gemini), else none', () => {
  assert.equal(compactCommand([cmd('autocompact'), cmd('compact')]), 'compact');
  assert.equal(compactCommand([cmd('compress'), cmd('memory')]), 'compress');
  assert.equal(compactCommand([cmd('init'), cmd('review')]), null);
});
