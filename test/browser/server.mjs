// A tiny static server on 127.0.0.1 (random port) for the browser tests and the webview bench. It serves
// the built bundle, the stylesheet, codicons and a test page made by the same renderWebviewHtml the
// extension uses, so the webview runs under the real CSP.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { themeCss, themes } from './themes.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { renderWebviewHtml, makeNonce } = await tsImport('../../src/common/webview/html.ts', import.meta.url);

const FILES = {
  '/dist/webview.js': ['dist/webview.js', 'text/javascript'],
  '/dist/webview.js.map': ['dist/webview.js.map', 'application/json'],
  '/dist/highlight.js': ['dist/highlight.js', 'text/javascript'],
  '/media/chat.css': ['media/chat.css', 'text/css'],
  '/dist/codicons/codicon.css': ['dist/codicons/codicon.css', 'text/css'],
  '/dist/codicons/codicon.ttf': ['dist/codicons/codicon.ttf', 'font/ttf'],
  '/harness/fake-vscode.js': ['test/browser/fake-vscode.js', 'text/javascript'],
};

/** Starts the server; `pageUrl(theme, state?)` is the test page for a theme. */
export async function startServer() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      if (url.pathname === '/' || url.pathname === '/index.html') {
        const origin = `http://127.0.0.1:${server.address().port}`;
        const nonce = makeNonce();
        const theme = url.searchParams.get('theme') ?? 'dark';
        let html = renderWebviewHtml({
          cspSource: origin,
          nonce,
          scriptUri: `${origin}/dist/webview.js`,
          highlightScriptUri: `${origin}/dist/highlight.js`,
          styleUris: [`${origin}/harness/theme/${theme}.css`, `${origin}/dist/codicons/codicon.css`, `${origin}/media/chat.css`],
          title: 'ACP Chat (test page)',
          ...(url.searchParams.get('view') === 'history' ? { view: 'history' } : {}),
        });
        // The fake VS Code API must exist before the webview script runs; it gets the same nonce.
        html = html.replace('<script nonce=', `<script nonce="${nonce}" src="${origin}/harness/fake-vscode.js"></script>\n    <script nonce=`);
        return send(res, 200, 'text/html', html);
      }
      // Chromium asks for a favicon; an empty answer keeps "404" out of the console-error checks.
      if (url.pathname === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
      const theme = /^\/harness\/theme\/([\w-]+)\.css$/.exec(url.pathname);
      if (theme) return send(res, 200, 'text/css', themeCss(theme[1]));
      const file = FILES[url.pathname];
      if (!file) return send(res, 404, 'text/plain', 'not found');
      return send(res, 200, file[1], await readFile(path.join(root, file[0])));
    } catch (err) {
      return send(res, 500, 'text/plain', String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    pageUrl: (theme = 'dark', state, view) => {
      const q = new URLSearchParams({ theme, bodyClass: themes[theme]?.bodyClass ?? 'vscode-dark' });
      if (state) q.set('state', JSON.stringify(state));
      if (view) q.set('view', view);
      return `${origin}/?${q}`;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}
