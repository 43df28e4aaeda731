/** Entry point of dist/webview.js: builds the chat panel in `#app` and says `ready` to the host. */
import { ChatApp } from './app';
import { acquireApi } from './vscodeApi';

declare global {
  // A handle for the browser tests and the bench (flush pending frames without waiting for them).
  var __acpChat: ChatApp | undefined;
}

const root = document.getElementById('app');
if (!root) throw new Error('ACP Chat: #app element missing from the webview HTML');
const app = new ChatApp(root, acquireApi());
globalThis.__acpChat = app;
app.start();
