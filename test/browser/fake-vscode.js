// The test page's stand-in for VS Code's webview API. Loaded (with the page nonce) before dist/webview.js.
// It records what the webview posts and lets the test deliver HostToWebview messages the way VS Code does
// (a `message` event on window).
(function () {
  const params = new URLSearchParams(location.search);
  document.body.classList.add(params.get('bodyClass') || 'vscode-dark');
  let state = params.get('state') ? JSON.parse(params.get('state')) : undefined;
  let acquired = false;
  const host = {
    posted: [],
    states: [],
    /** Raw input/output of the tool calls sent so far, by key: the host's answer to `getRaw`. */
    raws: {},
    send(message) {
      window.dispatchEvent(new MessageEvent('message', { data: message }));
    },
    deliver(message, raws) {
      Object.assign(host.raws, raws);
      host.send(message);
    },
    clear() {
      host.posted.length = 0;
    },
  };
  window.__host = host;
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return {
      postMessage(m) {
        host.posted.push(JSON.parse(JSON.stringify(m)));
        // Answered later, like a real round trip through the extension host.
        if (m && m.type === 'getRaw') setTimeout(() => host.send({ type: 'raw', key: m.key, raw: host.raws[m.key] ?? null }), 0);
      },
      getState() {
        return state;
      },
      setState(s) {
        state = s;
        host.states.push(s);
      },
    };
  };
})();
