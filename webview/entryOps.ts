/**
 * An op on an entry, decoded from the wire (keys, whole entries): the transcript applies it, and the
 * narrator says what is news (a new entry, a tool call's change, text the agent added).
 */
import type { TurnState } from '../src/common/webview/contract';
import type { PlacedEntryOp } from '../src/common/webview/entryOp';
import type { Narrator } from './narrator';
import type { Transcript } from './transcript';

/** `inserted`: after an entry was inserted (Retry and Regenerate follow the newest entries while idle). */
export function applyEntryOp(op: PlacedEntryOp, transcript: Transcript, narrator: Narrator, turn: TurnState, inserted: () => void): void {
  switch (op.op) {
    case 'insert':
      if (!transcript.view(op.entry.key)) narrator.inserted(op.entry, turn);
      transcript.insert(op.index, op.entry);
      inserted();
      return;
    case 'replace': {
      const prev = transcript.view(op.entry.key)?.entry;
      if (prev?.kind === 'tool_call' && op.entry.kind === 'tool_call') narrator.toolChanged(prev, op.entry);
      // ACP v2 streams a message as whole-message upserts: the same news as appended text.
      else if (prev && op.entry.kind === 'agent_message') narrator.appended(op.entry.key, turn);
      return transcript.replace(op.entry);
    }
    case 'fields': {
      const changed = transcript.patchFields(op.key, op.patch);
      if (changed?.before.kind === 'tool_call' && changed.after.kind === 'tool_call') narrator.toolChanged(changed.before, changed.after);
      else if (changed && changed.after.kind === 'agent_message') narrator.appended(op.key, turn);
      return;
    }
    case 'appendText':
      narrator.appended(op.key, turn);
      return transcript.appendText(op.key, op.text);
  }
}
