/**
 * The chat's first frame (src/common/webview/html.ts): an empty conversation and a prompt box, painted
 * from the page's HTML before the stylesheets and this script arrive. The app replaces it with its own;
 * what the user typed or focused in the meantime moves over.
 */
export function leaveFirstFrame(root: HTMLElement): (app: HTMLElement) => void {
  const early = root.classList.contains('first-frame') ? root.querySelector('textarea') : null;
  const typed = early?.value ?? '';
  const focused = early !== null && document.activeElement === early;
  root.classList.remove('first-frame');
  return (app) => {
    const box = app.querySelector<HTMLTextAreaElement>('textarea[aria-label="Prompt"]');
    if (!box) return;
    if (typed && !box.value) {
      box.value = typed;
      // As if typed: the prompt box keeps its draft (saved for a reload) and sizes itself.
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (focused) box.focus();
  };
}
