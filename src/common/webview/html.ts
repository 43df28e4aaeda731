/**
 * The chat panel's HTML, built in one place for the extension host and the browser test page, so both
 * load the webview under the same Content-Security-Policy.
 */
export interface WebviewHtmlOptions {
  /** `webview.cspSource` in VS Code; the test page's origin in browser tests. */
  readonly cspSource: string;
  /** A fresh random nonce per render: only our own script may run. */
  readonly nonce: string;
  readonly scriptUri: string;
  /** The code highlighter, a script the panel loads on its first code block (webview/codeHighlight.ts). */
  readonly highlightScriptUri?: string;
  readonly styleUris: readonly string[];
  readonly title?: string;
  /** The chat shown, for the webview's saved state (see WebviewPersistedState.chatId). */
  readonly chatId?: string;
  /** `history`: the side bar's History view (webview/history/historyApp.ts) rather than a chat. */
  readonly view?: 'history';
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function contentSecurityPolicy(o: Pick<WebviewHtmlOptions, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    // Agents send images inline as base64 (`data:`); nothing is fetched from the network.
    `img-src ${o.cspSource} data:`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
}

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(o))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttr(o.title ?? 'ACP Chat')}</title>
  </head>
  <body${o.chatId !== undefined ? ` data-chat-id="${escapeAttr(o.chatId)}"` : ''}${o.view !== undefined ? ` data-view="${escapeAttr(o.view)}"` : ''}${o.highlightScriptUri !== undefined ? ` data-highlight-script="${escapeAttr(o.highlightScriptUri)}"` : ''}>
    <div id="app"></div>
    <script nonce="${escapeAttr(o.nonce)}" src="${escapeAttr(o.scriptUri)}"></script>
  </body>
</html>`;
}

/**
 * A view with no chat: one line of text under a policy that allows nothing (VS Code warns about, and
 * would run script in, a webview without a policy).
 */
export function placeholderHtml(text: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>${escapeAttr(text)}</p></body></html>`;
}

/** 32 random alphanumerics from the platform's CSPRNG (web-standard `crypto`, present in Node 20 and browsers). */
export function makeNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
