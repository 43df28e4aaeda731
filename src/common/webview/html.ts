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
    // Our stylesheets, and the one inline <style> of the first frame (FIRST_FRAME_CSS), by its nonce.
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `font-src ${o.cspSource}`,
    // Agents send images inline as base64 (`data:`); nothing is fetched from the network.
    `img-src ${o.cspSource} data:`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
}

/**
 * The chat's first frame, painted before its stylesheets and script arrive: the layout's rules from
 * media/chat.css that the frame needs (the page, #app, the footer and the prompt box), inline.
 */
const FIRST_FRAME_CSS = `html,body{height:100%;margin:0;padding:0}
body{background:var(--vscode-editor-background);color:var(--vscode-foreground);font-family:var(--vscode-font-family,system-ui,sans-serif);font-size:var(--vscode-font-size,13px);line-height:1.5}
#app{position:relative;display:flex;flex-direction:column;height:100vh;overflow:hidden}
.first-frame-transcript{flex:1 0 50%}
.first-frame .footer{border-top:1px solid var(--vscode-panel-border,rgba(128,128,128,.35));padding:6px 10px 8px;display:flex;flex-shrink:0}
.first-frame textarea{flex:1;resize:none;min-height:calc(1lh + 12px);box-sizing:border-box;background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,rgba(128,128,128,.35));border-radius:4px;padding:5px 8px;font:inherit}
.first-frame textarea::placeholder{color:var(--vscode-input-placeholderForeground);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}`;

/** The placeholder of the prompt box, in the first frame and in the app (webview/promptBox.ts). */
export const PROMPT_PLACEHOLDER = 'Message the agent — / for commands, @ for files and context';

/**
 * The chat's frame as HTML: an empty conversation and the prompt box, which the app replaces with its own
 * (webview/firstFrame.ts carries over what was typed meanwhile; `first-frame` on #app says it is there).
 */
const FIRST_FRAME = `<div class="first-frame-transcript"></div><div class="footer"><textarea aria-label="Prompt" rows="1" placeholder="${PROMPT_PLACEHOLDER}"></textarea></div>`;

/** A value as a JavaScript literal inside an inline <script>: no `</script>` or `<!--` can end or bend it. */
const scriptLiteral = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

/**
 * The chat's loader, inline by its nonce: after the page's `load`, its stylesheets, then (once they are in, so
 * the app never draws unstyled) its script. VS Code shows a webview's document at its `load` event (or
 * 200 ms after writing it), so a page whose stylesheets and 0.5 MB script are in its HTML stays hidden until
 * they have arrived and run; this one is shown with its first frame as soon as it is parsed. The script
 * created here carries the nonce, as the policy asks of every script (webview/codeHighlight.ts reads it).
 */
/**
 * The loader's start if the page's load event has not come by then: VS Code writes the document into its
 * frame itself, and shows it after 200 ms when no load event came, so the app must not wait on that event alone.
 */
const LOAD_FALLBACK_MS = 250;

function chatLoader(nonce: string, styleUris: readonly string[], scriptUri: string): string {
  return `<script nonce="${nonce}">(() => {
      const d = document, nonce = d.currentScript.nonce, styles = ${scriptLiteral(styleUris)};
      const script = () => { const s = d.createElement('script'); s.nonce = nonce; s.src = ${scriptLiteral(scriptUri)}; d.body.append(s); };
      let started = false;
      const load = () => {
        if (started) return;
        started = true;
        let left = styles.length;
        if (left === 0) return script();
        for (const href of styles) {
          const l = d.createElement('link');
          l.rel = 'stylesheet';
          l.href = href;
          l.onload = l.onerror = () => { if (--left === 0) script(); };
          d.body.append(l);
        }
      };
      if (d.readyState === 'complete') load(); else addEventListener('load', load, { once: true });
      setTimeout(load, ${LOAD_FALLBACK_MS});
    })();</script>`;
}

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  const chat = o.view === undefined;
  const nonce = escapeAttr(o.nonce);
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}">`).join('\n    ');
  // A chat paints its frame from the inline rules and is shown at once; its loader brings the rest. The
  // history view waits for its stylesheets in the head.
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(o))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${chat ? `<style nonce="${nonce}">${FIRST_FRAME_CSS}</style>` : styles}
    <title>${escapeAttr(o.title ?? 'ACP Chat')}</title>
  </head>
  <body${o.chatId !== undefined ? ` data-chat-id="${escapeAttr(o.chatId)}"` : ''}${o.view !== undefined ? ` data-view="${escapeAttr(o.view)}"` : ''}${o.highlightScriptUri !== undefined ? ` data-highlight-script="${escapeAttr(o.highlightScriptUri)}"` : ''}>
    <div id="app"${chat ? ` class="first-frame">${FIRST_FRAME}` : '>'}</div>
    ${chat ? chatLoader(nonce, o.styleUris, o.scriptUri) : `<script nonce="${nonce}" src="${escapeAttr(o.scriptUri)}"></script>`}
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
