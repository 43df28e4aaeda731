/**
 * What each message from the chat webview does to a live chat. The webview is untrusted; its
 * messages were already validated by the panel (zWebviewToHost), and here each maps to one operation.
 */
import type { WebviewToHost } from '../../common/webview/contract';
import { assertNever } from '../../common/util/guards';
import { checkElicitationUrl } from '../../common/elicitation/url';
import type { ChatControls, ChatUi } from './chatPorts';

export function dispatchWebviewMessage(chat: ChatControls, ui: ChatUi, m: WebviewToHost, warn: (message: string) => void): void {
  switch (m.type) {
    case 'ready':
    case 'mentionQuery':
    case 'getRaw':
    case 'expandSubagents':
      return; // answered by the panel itself (each webview feeds its own expanded subagents)
    case 'openSubagent':
      return chat.openSubagent(m.childSessionId);
    case 'cancelSubagent':
      return chat.cancelSubagent(m.childSessionId);
    case 'prompt': {
      if (m.branchFrom === undefined) return chat.prompt(m.text, m.images ?? [], m.steer === true);
      const shown = chat.shownEntry(m.branchFrom);
      if (shown?.entry.kind === 'user_message') ui.branch?.(shown.sessionId, m.branchFrom, chat.takePrompt(m.text, m.images ?? []));
      else warn(`edit of unknown message ${m.branchFrom} ignored`);
      // The edit's chips went with it (or are dropped): the user's own are back in the prompt box.
      return chat.endEdit();
    }
    case 'cancelEdit':
      return chat.endEdit();
    case 'editMessage':
    case 'restoreHere': {
      const shown = chat.shownEntry(m.key);
      if (shown?.entry.kind === 'user_message') (m.type === 'editMessage' ? ui.editMessage : ui.restoreHere)?.(shown.sessionId, m.key);
      return;
    }
    case 'retry':
      return chat.retry();
    case 'regenerate':
      return ui.regenerate?.();
    case 'cancel':
      return chat.cancel();
    case 'permission':
      if (!chat.broker.respond(m.requestId, m.optionId)) warn(`permission answer for unknown request ${m.requestId} ignored`);
      return;
    case 'elicitation':
      return answerElicitation(chat, ui, m, warn);
    case 'setMode':
      return chat.setMode(m.modeId);
    case 'setConfigOption':
      return chat.setConfigOption(m.configId, m.value);
    case 'restartAgent':
      void chat.restart();
      return;
    case 'configureAgent':
      return ui.configureAgent?.(m.how);
    case 'noticeAction':
      return chat.noticeAction(m.action);
    case 'removeQueued':
      return chat.removeQueued(m.id);
    case 'editQueued':
      return chat.editQueued(m.id, m.text);
    case 'moveQueued':
      return chat.moveQueued(m.id, m.offset);
    case 'removeContext':
      return chat.removeContext(m.id);
    case 'addContext':
      return ui.addContext?.(chat, m.source);
    case 'dropContext':
      return ui.dropContext?.(chat, m.uris);
    case 'openLink':
      return ui.openLink(m.href);
    case 'openLocation':
      return ui.openLocation(m.path, m.line);
    case 'openDiff': {
      const shown = chat.shownEntry(m.key);
      if (shown) ui.openDiff(shown.entry, m.index);
      return;
    }
    case 'copy':
      return ui.copy(m.text);
    case 'insertCode':
      return ui.insertCode?.(m.text);
    case 'applyCode':
      return ui.applyCode?.(m.path, m.text);
    case 'revealInTree': {
      const shown = chat.shownEntry(m.key);
      if (shown) ui.revealInTree(shown.sessionId, m.key);
      return;
    }
    case 'exportMarkdown':
      return ui.exportMarkdown(chat);
    case 'worktreeActions':
      return ui.worktreeActions?.();
    case 'changes':
      return chat.reviewChanges(m.setId, m.index, m.action);
    case 'forkChat': {
      const shown = chat.shownEntry(m.key);
      if (shown?.entry.kind === 'user_message') ui.forkChat?.(shown.sessionId, m.key);
      return;
    }
    default:
      assertNever(m, 'webview message');
  }
}

/**
 * The user's answer to a question. URL mode: "accept" means "open it", so the URL is checked again here
 * (the webview is untrusted) and opened only then; a refused URL is declined instead.
 */
function answerElicitation(chat: ChatControls, ui: ChatUi, m: Extract<WebviewToHost, { type: 'elicitation' }>, warn: (message: string) => void): void {
  const prompt = chat.elicitations.pending(chat.current()?.sessionId ?? null).find((p) => p.requestId === m.requestId);
  if (!prompt) return warn(`answer to unknown question ${m.requestId} ignored`);
  if (m.action !== 'accept') {
    chat.elicitations.respond(m.requestId, { action: m.action });
    return;
  }
  if (prompt.mode === 'url') {
    const verdict = checkElicitationUrl(prompt.url ?? '');
    if (!verdict.ok) {
      warn(`elicitation URL not opened: ${verdict.reason}`);
      chat.elicitations.respond(m.requestId, { action: 'decline' });
      return;
    }
    ui.openElicitationUrl(verdict.url);
    chat.elicitations.respond(m.requestId, { action: 'accept' });
    return;
  }
  chat.elicitations.respond(m.requestId, { action: 'accept', content: m.content ?? {} });
}
