// The one Chromium the browser tests (test/browser/browser.mjs) and the UI stages (host.mjs) launch, and how:
// headless Debian Chromium with nothing running in the background (no sync, updates or QUIC), and /tmp
// instead of a small /dev/shm. No imports, so modules that only need paths load without node_modules.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
