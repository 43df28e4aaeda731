/**
 * Focus that arrives in the panel from outside lands in the prompt box. VS Code focuses a chat's webview
 * when a command opens or targets it (New Chat, Open Chat, Add Selection to Chat, a split, a tab brought
 * forward), but only the document: the caret was nowhere and the first words typed were lost. A click
 * that brings the focus (into the transcript, to select text) keeps it where the pointer put it.
 */
export function promptTakesArrivingFocus(focusPrompt: () => void): void {
  let pointer = false;
  addEventListener('pointerdown', () => (pointer = true), true);
  addEventListener('pointerup', () => (pointer = false), true);
  const arrive = (): void => {
    const active = document.activeElement;
    if (!pointer && (active === null || active === document.body)) focusPrompt();
  };
  addEventListener('focus', arrive);
  // The webview may have been focused before this script ran (a tab rebuilt as it is shown).
  if (document.hasFocus()) arrive();
}
