// The posts the chat panel's webview gets for the paced stream (webview.paced60s*): the shipped host
// pipeline (MessageStore -> PanelSource -> PanelFeed, whose batcher posts streamed text once it is worth
// a post) run over the paced agent's chunks (fixtures/pacedAgent.mjs: `piece` characters of `markdown`,
// `perSecond` of them) on a simulated clock, a frame every 16 ms. Each post with its time (ms from the
// first chunk), for the bench page to deliver in real time: the renderer then draws what the host sends,
// as often as it sends it.
import { MessageStore } from '../../src/common/store';
import { EMPTY_PANEL } from '../../src/common/webview/emptyPanel';
import type { FeedMessage } from '../../src/common/webview/contract';
import { PanelFeed, PanelSource } from '../../src/common/webview/panelFeed';
import { chunk, openSession } from './subagentWire';

const FRAME_MS = 16;
const SESSION = 'paced';

export interface TimedPost {
  readonly t: number;
  readonly m: FeedMessage;
}

/** The snapshot the panel opens with (the prompt, the turn busy), then the stream's posts at their times. */
export function pacedPosts(markdown: string, piece: number, perSecond: number): { first: FeedMessage; timed: TimedPost[] } {
  const store = new MessageStore({ now: () => 0 });
  const source = new PanelSource();
  let clock = 0;
  const out: TimedPost[] = [];
  const feed = new PanelFeed(
    (m) => out.push({ t: clock, m }),
    () => clock,
  );
  source.onDidChange((c) => {
    if (!feed.changed(c)) throw new Error('unexpected reset');
  });
  let seq = 0;
  const ingest = (dir: 'client->agent' | 'agent->client', line: string) => source.storeChanged(store.ingest(dir, JSON.parse(line), ++seq), SESSION, () => store.session(SESSION));
  for (const w of openSession(SESSION)) ingest(w.dir, w.line);
  feed.snapshot(store.session(SESSION)?.entries ?? [], { ...EMPTY_PANEL, agentName: 'Bench', sessionId: SESSION, turn: 'busy' });
  const first = out.shift()?.m;
  if (first?.type !== 'snapshot') throw new Error('no snapshot');
  let nextFrame = FRAME_MS;
  for (let i = 0, at = 0; at < markdown.length; i++, at += piece) {
    const t = (i * 1000) / perSecond;
    for (; nextFrame <= t; nextFrame += FRAME_MS) {
      clock = nextFrame;
      feed.frame();
    }
    clock = t;
    const w = chunk(SESSION, 'm1', '', markdown.slice(at, at + piece), false);
    ingest(w.dir, w.line);
  }
  clock = nextFrame;
  feed.flush();
  return { first, timed: out };
}
