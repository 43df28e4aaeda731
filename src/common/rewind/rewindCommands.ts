/** Command ids of Edit and Rerun, Retry and Regenerate (used by the webview's buttons, the tree and the palette). */
export const RewindCommands = {
  editMessage: 'acpChat.editMessage',
  restoreInPlace: 'acpChat.restoreInPlace',
  branch: 'acpChat.branchFromMessage',
  retry: 'acpChat.retryTurn',
  regenerate: 'acpChat.regenerate',
} as const;
