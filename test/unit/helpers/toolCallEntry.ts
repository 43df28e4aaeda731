// A tool-call entry as the store makes it, for unit tests: the fields a test does not give are those of a
// finished edit with no raw input or output, seen live, its key also its tool call's id and its title.
import type { ToolCallEntry } from '../../../src/common/store/model';

const stats = { chunks: 0, upserts: 0, bytes: 0, firstSeen: 0, lastSeen: 0, lines: [] };

export function toolCallEntry(key: string, fields: Partial<ToolCallEntry> = {}): ToolCallEntry {
  return {
    kind: 'tool_call',
    key,
    toolCallId: key,
    title: key,
    name: null,
    toolKind: 'edit',
    status: 'completed',
    content: [],
    locations: [],
    rawInput: null,
    rawOutput: null,
    meta: null,
    parentKey: null,
    statusHistory: [],
    provenance: 'live',
    stats,
    ...fields,
  };
}
