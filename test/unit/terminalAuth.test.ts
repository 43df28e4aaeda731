// Terminal sign-in: which auth methods are terminal ones (the schema's form and the `_meta` conventions of
// published agents, from their recorded initialize results), and what exactly would run for them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { zInitializeResult } from '../../src/common/protocol/requests';
import { asTerminalAuthMethod } from '../../src/common/protocol/sessionOps';
import { terminalAuthInvocation } from '../../src/common/terminalAuth';

const agent = { command: '/usr/bin/agent', args: ['--acp'], env: { TOKEN: 'configured' } };
const fixture = (name: string) => zInitializeResult.parse(JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'initialize', name), 'utf8')));

describe('terminal auth methods', () => {
  it('the schema form: the agent’s own command with the method’s args appended and its env over the agent’s', () => {
    const m = asTerminalAuthMethod({ type: 'terminal', id: 'login', name: 'Log in', args: ['login', '--device'], env: { MODE: 'tui', TOKEN: 'x' } });
    assert.ok(m);
    const r = terminalAuthInvocation(agent, m);
    assert.ok(r.ok);
    assert.equal(r.invocation.command, '/usr/bin/agent');
    assert.deepEqual(r.invocation.args, ['--acp', 'login', '--device']);
    assert.deepEqual(r.invocation.env, { TOKEN: 'x', MODE: 'tui' });
    assert.equal(r.invocation.display, 'MODE=tui TOKEN=x /usr/bin/agent --acp login --device');
    assert.equal(r.invocation.otherProgram, false);
  });

  it('Qwen Code’s `_meta: {type: "terminal", args}` runs the agent’s own command with those args', () => {
    const init = fixture('qwen-code-0.15.10.json');
    const methods = (init.authMethods ?? []).map(asTerminalAuthMethod);
    assert.deepEqual(
      methods.map((m) => m?.args),
      [['--auth-type=openai'], ['--auth-type=qwen-oauth']],
    );
    const first = methods[0];
    assert.ok(first);
    const r = terminalAuthInvocation({ command: 'qwen', args: ['--acp'], env: {} }, first);
    assert.ok(r.ok && r.invocation.command === 'qwen' && r.invocation.args.join(' ') === '--acp --auth-type=openai');
  });

  it('Copilot’s `_meta["terminal-auth"]` names another program: run as named, flagged for the consent dialog', () => {
    const init = fixture('github-copilot-1.0.102.json');
    const m = (init.authMethods ?? []).map(asTerminalAuthMethod).find((x) => x !== undefined);
    assert.ok(m);
    assert.equal(m.label, 'Copilot Login');
    const r = terminalAuthInvocation({ command: '/opt/copilot/bin/copilot', args: ['--acp'], env: {} }, m);
    assert.ok(r.ok);
    assert.deepEqual([r.invocation.command, ...r.invocation.args], ['copilot', 'login']);
    assert.equal(r.invocation.otherProgram, true);
  });

  it('agent strings are never interpreted: shell syntax is one quoted word in the display; NUL or bad env names are refused', () => {
    const m = asTerminalAuthMethod({ type: 'terminal', id: 't', name: 'T', args: ['$(rm -rf ~)', "it's; ls"] });
    assert.ok(m);
    const r = terminalAuthInvocation(agent, m);
    assert.ok(r.ok);
    assert.deepEqual(r.invocation.args, ['--acp', '$(rm -rf ~)', "it's; ls"], 'passed as they are, as separate arguments');
    assert.equal(r.invocation.display, `/usr/bin/agent --acp '$(rm -rf ~)' 'it'\\''s; ls'`);
    const nul = asTerminalAuthMethod({ type: 'terminal', id: 't', name: 'T', args: ['a\0b'] });
    assert.ok(nul);
    assert.equal(terminalAuthInvocation(agent, nul).ok, false);
    const env = asTerminalAuthMethod({ type: 'terminal', id: 't', name: 'T', env: { 'A=B': 'x' } });
    assert.ok(env);
    assert.equal(terminalAuthInvocation(agent, env).ok, false);
  });

  it('other methods are not terminal ones', () => {
    assert.equal(asTerminalAuthMethod({ id: 'a', name: 'A' }), undefined);
    assert.equal(asTerminalAuthMethod({ type: 'env_var', id: 'e', name: 'E', _meta: { type: 'terminal', args: ['x'] } }), undefined);
    assert.equal(asTerminalAuthMethod({ id: 'a', name: 'A', _meta: { 'terminal-auth': { command: '' } } }), undefined);
  });
});
