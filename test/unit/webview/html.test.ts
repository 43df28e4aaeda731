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

test('a chat page is its frame and a loader: no stylesheet or script in its HTML holds the page back', () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js', styleUris: ['a.css', 'b.css'] });
  assert.match(csp(html) ?? '', /style-src vscode-resource: 'nonce-N0NCE'/);
  assert.match(html, /<style nonce="N0NCE">/);
  const frame = html.indexOf('textarea aria-label="Prompt"');
  assert.ok(frame > 0, 'the first frame has the prompt box');
  // VS Code shows a webview's document at its load event: nothing in the HTML may delay that event.
  assert.doesNotMatch(html, /<link|<script[^>]* src=/);
  const loader = html.indexOf('<script nonce="N0NCE">');
  assert.ok(frame < loader, 'the frame, then the loader');
  assert.ok(html.includes('["a.css","b.css"]') && html.includes('"x.js"'), 'the loader brings the stylesheets and the script');
});

test("the chat loader's addresses cannot end its script", () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js</script><script>alert(1)', styleUris: ['<!--a.css'] });
  assert.equal(html.match(/<\/script>/g)?.length, 1);
  assert.doesNotMatch(html, /<!--/);
});

test('the history view waits for its stylesheets in the head and has no chat frame', () => {
  const html = renderWebviewHtml({ cspSource: 'vscode-resource:', nonce: 'N0NCE', scriptUri: 'x.js', styleUris: ['a.css'], view: 'history' });
  assert.ok(html.indexOf('href="a.css"') < html.indexOf('</head>'));
  assert.doesNotMatch(html, /textarea|<style/);
});
