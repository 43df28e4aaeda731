// A recorded transcript (test/fixtures/transcripts/NAME) reduced by the store, as browser cases feed it to
// the webview: every session, parent first, with its entries and the commands it offered.
import { readFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

const { MessageStore } = await tsImport('../../src/common/store/index.ts', import.meta.url);

export function recordedSessions(name) {
  const store = new MessageStore();
  readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (l.trim() !== '') store.ingestLine(l, i + 1);
    });
  return store.sessions().map((s) => ({ sessionId: s.sessionId, entries: structuredClone(s.entries), availableCommands: s.availableCommands }));
}
