/** The view that draws an entry of each kind (a question starts with the form its prompt gives, if any). */
import type { ElicitationPrompt } from '../../src/common/webview/contract';
import type { ViewEntry } from '../../src/common/webview/viewEntry';
import { CompactionView } from './compactionView';
import { ElicitationView } from './elicitationView';
import type { EntryView, ViewDeps } from './entryView';
import { MessageView } from './messageView';
import { SessionMessageView } from './sessionMessageView';
import { SubagentView } from './subagentView';
import { ToolCallView } from './toolCallView';

export function createEntryView(e: ViewEntry, ctx: ViewDeps, promptFor: (key: string) => ElicitationPrompt | undefined): EntryView {
  switch (e.kind) {
    case 'elicitation': {
      const v = new ElicitationView(e, ctx);
      v.setPrompt(promptFor(e.key));
      return v;
    }
    case 'subagent':
      return new SubagentView(e, ctx);
    case 'compaction':
      return new CompactionView(e, ctx);
    case 'tool_call':
      return new ToolCallView(e, ctx);
    case 'session_message':
      return new SessionMessageView(e, ctx);
    default:
      return new MessageView(e, ctx);
  }
}
