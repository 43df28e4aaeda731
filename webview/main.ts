/** Entry point of dist/webview.js: builds the chat panel (or, in the side bar's History view, the history) in `#app` and says `ready` to the host. */
import { ChatApp } from './app';
import { acquireApi } from './vscodeApi';
import { HistoryApp, type HistoryHost } from './history/historyApp';
import { leaveFirstFrame } from './firstFrame';

declare global {
  // A handle for the browser tests and the bench (flush pending frames without waiting for them).
  var __acpChat: ChatApp | undefined;
  var __acpHistory: HistoryApp | undefined;
}

const root = document.getElementById('app');
if (!root) throw new Error('ACP Chat: #app element missing from the webview HTML');
if (document.body.dataset['view'] === 'history') {
  // The same bundle: the history view posts its own messages (historyContract.ts) over the same channel.
  const history = new HistoryApp(root, acquireApi() as unknown as HistoryHost);
  globalThis.__acpHistory = history;
  history.start();
} else {
  const handOver = leaveFirstFrame(root);
  const app = new ChatApp(root, acquireApi());
  globalThis.__acpChat = app;
  const sendEntered = handOver(root);
  app.start();
  sendEntered();
}
