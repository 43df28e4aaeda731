/**
 * The chat's side of the connection supervisor (common/recovery/supervisor): the wording of the
 * exit banner for each decision, and what each notice button does. Kept out of chatConnection.ts and chatThread.ts, which
 * only call in at the points where the facts arise (exit, turn start/end, traffic, cancel).
 */
import type { NoticeActionId } from '../../common/notices';
import type { QueuedPrompt } from '../../common/promptQueue';
import type { ConnectionSupervisor, ExitDecision } from '../../common/recovery/supervisor';
import { assertNever } from '../../common/util/guards';

/** Why a chat whose agent the settings do not name does not start, and what brings it back. */
export function missingAgentText(agentId: string): string {
  return `Agent "${agentId}" is not configured: add it (Add Agent…) or name it in the acpChat.agents setting. This chat starts as soon as the settings name it; the transcript is kept.`;
}

/** The banner shown while the agent is down, worded from what the supervisor decided. */
export function exitMessage(agentName: string, reason: string, stderrTail: string, decision: ExitDecision): string {
  const tail = stderrTail.trim().split('\n').slice(-3).join(' ⏎ ');
  const last = tail ? ` Last output: ${tail}` : '';
  switch (decision.kind) {
    case 'restart':
      return `${agentName} stopped: ${reason}.${last} Restarting it (attempt ${decision.attempt} of ${decision.maxAttempts}); the transcript is kept.`;
    case 'giveUp':
      return `${agentName} stopped: ${reason}.${last} It stopped ${decision.failures} times in a short time and is not restarted automatically; Restart the agent to try again.`;
    case 'off':
      return `${agentName} stopped: ${reason}.${last} Restart the agent to continue; the transcript is kept.`;
    default:
      return assertNever(decision, 'exit decision');
  }
}

/** What the chat lets a notice button do. */
export interface RecoveryControls {
  cancel(): void;
  restart(): Promise<void>;
  /** Sends (or queues) a prompt the user chose to resend. */
  resend(prompt: QueuedPrompt): void;
}

export function runNoticeAction(supervisor: ConnectionSupervisor<QueuedPrompt>, action: NoticeActionId, chat: RecoveryControls): void {
  switch (action) {
    case 'keepWaiting':
      return supervisor.keepWaiting();
    case 'cancel':
      return chat.cancel();
    case 'restart':
      void chat.restart();
      return;
    case 'resend': {
      const p = supervisor.takeUndelivered();
      if (p) chat.resend(p);
      return;
    }
    case 'edit':
      // The webview put the text into the prompt box itself; the offer is used up.
      supervisor.takeUndelivered();
      return;
    case 'dismiss':
      return supervisor.dismiss();
    default:
      assertNever(action, 'notice action');
  }
}
