/**
 * The webview's only channel to the host. VS Code injects `acquireVsCodeApi` (callable once); the
 * browser test page provides a fake with the same shape, so the same bundle runs in both.
 */
import type { WebviewPersistedState, WebviewToHost } from '../src/common/webview/contract';

export interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: WebviewPersistedState): void;
}

declare global {
  // Provided by VS Code (or the test harness) before our script runs.
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

/** A stand-in when the page has no host at all (opened directly): posts go to the console, nothing breaks. */
function detachedApi(): VsCodeApi {
  let state: unknown = undefined;
  return {
    postMessage: (m) => console.info('[acp-chat] no host; dropped', m),
    getState: () => state,
    setState: (s) => {
      state = s;
    },
  };
}

export function acquireApi(): VsCodeApi {
  return typeof globalThis.acquireVsCodeApi === 'function' ? globalThis.acquireVsCodeApi() : detachedApi();
}
