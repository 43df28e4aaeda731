import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import bundled from '../../../src/common/agents/catalog.json';
import { launchPlan, parseCatalog } from '../../../src/common/agents/registry';
import { zInitializeResult } from '../../../src/common/protocol/requests';

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/initialize', name), 'utf8'));

test("published agents' initialize results parse with their capabilities and auth methods kept", () => {
  const copilot = zInitializeResult.parse(fixture('github-copilot-1.0.102.json'));
  assert.deepEqual(copilot.agentCapabilities?.auth?.logout, {});
  assert.deepEqual(copilot.agentCapabilities?.sessionCapabilities?.close, {});
  assert.deepEqual(
    copilot.authMethods?.map((m) => m.id),
    ['copilot-login'],
  );
  assert.deepEqual(copilot.authMethods?.[0]?._meta?.['terminal-auth'], { command: 'copilot', args: ['login'], label: 'Copilot Login' });

  const qwen = zInitializeResult.parse(fixture('qwen-code-0.15.10.json'));
  assert.deepEqual(
    qwen.authMethods?.map((m) => m.id),
    ['openai', 'qwen-oauth'],
  );
  assert.deepEqual(qwen.authMethods?.[1]?._meta, { type: 'terminal', args: ['--auth-type=qwen-oauth'] });
});

test('the catalog starts Qwen Code and Copilot CLI with the flag their published binaries answered initialize on', () => {
  const agents = parseCatalog(bundled, { builtIn: true }).agents;
  const argsOf = (id: string) =>
    launchPlan(
      agents.find((a) => a.id === id)!,
      'linux-x86_64',
    )?.entry.args;
  assert.deepEqual(argsOf('qwen-code')?.slice(-2), ['qwen', '--acp']);
  assert.deepEqual(argsOf('github-copilot')?.slice(-2), ['copilot', '--acp']);
});
