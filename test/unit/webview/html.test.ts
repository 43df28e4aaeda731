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

test('a chat page paints its frame before its stylesheets and script: inline rules by nonce, the prompt box first', () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js', styleUris: ['a.css'] });
  assert.match(csp(html) ?? '', /style-src vscode-resource: 'nonce-N0NCE'/);
  assert.match(html, /<style nonce="N0NCE">/);
  const frame = html.indexOf('textarea aria-label="Prompt"');
  assert.ok(frame > 0, 'the first frame has the prompt box');
  assert.ok(frame < html.indexOf('href="a.css"') && html.indexOf('href="a.css"') < html.indexOf('src="x.js"'), 'frame, then stylesheets, then script');
});

test('the history view waits for its stylesheets in the head and has no chat frame', () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js', styleUris: ['a.css'], view: 'history' });
  assert.ok(html.indexOf('href="a.css"') < html.indexOf('</head>'));
  assert.doesNotMatch(html, /textarea|<style/);
});
