import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeholderHtml, renderWebviewHtml } from '../../../src/common/webview/html';

const csp = (html: string): string | undefined => /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];

test('the chat page allows only our nonce-tagged script', () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js', styleUris: ['a.css'] });
  assert.match(csp(html) ?? '', /default-src 'none'/);
  assert.match(csp(html) ?? '', /script-src 'nonce-N0NCE'/);
});

test('the no-chat placeholder has a policy that allows nothing, and its text is escaped', () => {
  const html = placeholderHtml('No chat <b>"x"</b>');
  assert.equal(csp(html), "default-src 'none'");
  assert.doesNotMatch(html, /<b>/);
});
