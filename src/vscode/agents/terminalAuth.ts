/**
 * Terminal sign-in (ACP `terminal` auth methods): the agent's own command again, with the method's
 * arguments and environment, in a VS Code terminal. Nothing runs before the user has seen exactly what
 * will run and agreed; the program is started directly with an argument list (`shellPath`/`shellArgs`),
 * never through a shell, so nothing the agent sent is interpreted. The failed request is retried when
 * the terminal closes with exit status 0, or when the user says so.
 */
import * as vscode from 'vscode';
import type { AgentConfig } from '../../common/config/settings';
import type { TerminalAuthMethod } from '../../common/protocol/sessionOps';
import { terminalAuthInvocation } from '../../common/terminalAuth';
import { labelText, noticeLines, noticeText } from '../../common/untrusted';

const RUN_IN_TERMINAL = 'Run in Terminal';
const RETRY = 'Retry';

export async function runTerminalAuth(agent: AgentConfig, method: TerminalAuthMethod, cwd: string, log: (message: string) => void): Promise<boolean> {
  const r = terminalAuthInvocation(agent, method);
  if (!r.ok) {
    log(`terminal sign-in ${method.id} of ${agent.id} refused: ${r.reason}`);
    void vscode.window.showErrorMessage(`${noticeText(agent.name)} offers a sign-in ACP Chat will not run: ${noticeText(r.reason)}.`);
    return false;
  }
  const inv = r.invocation;
  const choice = await vscode.window.showWarningMessage(
    `${noticeText(agent.name)} needs you to sign in: run "${noticeText(method.label ?? method.name)}" in a terminal?`,
    {
      modal: true,
      detail: noticeLines(
        'This runs:',
        inv.display,
        ...(inv.otherProgram ? ['The agent names this program itself (it is not the agent’s configured command): run it only if you trust it.'] : []),
        'The chat goes on when the terminal closes.',
      ),
    },
    RUN_IN_TERMINAL,
  );
  if (choice !== RUN_IN_TERMINAL) return false;
  log(`terminal sign-in ${method.id} of ${agent.id}: ${inv.display}`);
  const terminal = vscode.window.createTerminal({
    name: `Sign in · ${labelText(agent.name, 40)}`,
    shellPath: inv.command,
    shellArgs: [...inv.args],
    env: { ...inv.env },
    cwd: agent.cwd ?? cwd,
    isTransient: true,
  });
  terminal.show();
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      closed.dispose();
      resolve(ok);
    };
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      const code = t.exitStatus?.code;
      log(`terminal sign-in ${method.id} of ${agent.id} ended with exit status ${String(code)}`);
      if (code === 0) return settle(true);
      settled = true;
      closed.dispose();
      void vscode.window
        .showWarningMessage(`The sign-in to ${noticeText(agent.name)} ended with exit status ${noticeText(String(code ?? 'unknown'))}.`, RETRY)
        .then((a) => resolve(a === RETRY));
    });
    // The user may finish signing in and keep the terminal open: "Retry" goes on at once.
    void vscode.window
      .showInformationMessage(`Sign in to ${noticeText(agent.name)} in the terminal; the chat goes on when it closes.`, RETRY)
      .then((a) => a === RETRY && settle(true));
  });
}
