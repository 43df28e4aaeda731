/**
 * The chat's first frame (src/common/webview/html.ts): an empty conversation and a prompt box, painted
 * from the page's HTML before the stylesheets and this script arrive. The app replaces it with its own;
 * what the user typed or focused in the meantime moves over, and a prompt they already sent with Enter is
 * sent once the app is there.
 */
export function leaveFirstFrame(root: HTMLElement): (app: HTMLElement) => () => void {
  const early = root.classList.contains('first-frame') ? root.querySelector('textarea') : null;
  const raw = early?.value ?? '';
  // With no script yet, Enter in the frame's plain textarea typed a line break at the end of the text
  // instead of sending it: the user meant to send. (Shift+Enter at the very end is the one reading lost.)
  const entered = /\r?\n$/.test(raw) && raw.trim() !== '';
  const typed = entered ? raw.replace(/\r?\n$/, '') : raw;
  const focused = early !== null && document.activeElement === early;
  root.classList.remove('first-frame');
  return (app) => {
    const box = app.querySelector<HTMLTextAreaElement>('textarea[aria-label="Prompt"]');
    if (!box) return () => undefined;
    const moved = typed !== '' && !box.value;
    if (moved) {
      box.value = typed;
      // As if typed: the prompt box keeps its draft (saved for a reload) and sizes itself.
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (focused) box.focus();
    // Called once the app has started (its ready handshake posted), so the prompt follows it.
    return () => {
      if (entered && moved) app.querySelector<HTMLButtonElement>('button[aria-label="Send"]')?.click();
    };
  };
}
