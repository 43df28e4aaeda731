// A recorded real agent (test/fixtures/transcripts/*.jsonl, what went over the wire byte for byte) played
// back as an agent on a message stream (the SDK server side's, remoteAgentServer.ts): the recording is
// walked in order; each request the agent received waits for the live client's request of the same method
// (whose id then stands for the recorded one in the agent's answer), each answer the agent received waits
// for the live client's answer to that request, and everything the agent sent is sent as recorded.
// A live request the recording does not expect next is refused (method not found), as an agent without the
// method would, and the walk goes on.
import type { MessageStream } from '../../../src/node/transport/remoteStream';

interface Rec {
  readonly dir: string;
  readonly msg: { id?: string | number | null; method?: string; result?: unknown; error?: unknown };
}

type Live = { id?: string | number | null; method?: string };

export function parseTranscript(text: string): Rec[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec)
    .filter((r) => r.dir === 'client->agent' || r.dir === 'agent->client');
}

export function replayAgent(records: readonly Rec[]): (stream: MessageStream) => Promise<void> {
  return async (stream) => {
    const reader = stream.readable.getReader();
    const writer = stream.writable.getWriter();
    const ids = new Map<string, string | number | null | undefined>(); // recorded request id -> live id
    const held: Live[] = []; // live messages read ahead of the walk
    let ended = false;
    const next = async (want: (m: Live) => boolean): Promise<Live | undefined> => {
      for (;;) {
        const i = held.findIndex(want);
        if (i >= 0) return held.splice(i, 1)[0];
        if (ended) return undefined;
        const r = await reader.read();
        if (r.done) {
          ended = true;
          return undefined;
        }
        const m = r.value as Live;
        if (m.method !== undefined && m.id !== undefined && !records.some((x) => x.dir === 'client->agent' && x.msg.method === m.method)) {
          await writer.write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} is not in the recording` } });
        } else held.push(m);
      }
    };
    for (const { dir, msg } of records) {
      if (dir === 'client->agent') {
        if (msg.method !== undefined && msg.id !== undefined) {
          const live = await next((m) => m.method === msg.method && m.id !== undefined);
          if (!live) return;
          ids.set(JSON.stringify(msg.id), live.id);
        } else if (msg.method === undefined && !(await next((m) => m.method === undefined && m.id === msg.id))) return;
      } else if (msg.method === undefined) {
        await writer.write({ ...msg, id: ids.get(JSON.stringify(msg.id)) ?? msg.id });
      } else await writer.write(msg);
    }
    // The recording is over: what else the client asks is refused, until it hangs up.
    for (;;) {
      const m = await next(() => true);
      if (!m) return;
      if (m.method !== undefined && m.id !== undefined) await writer.write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `${m.method} is not in the recording` } });
    }
  };
}
