/**
 * The prompt box's images: pasted ones read from the clipboard (base64, each within MAX_IMAGE_BASE64), and
 * the ones a message is restored with, as the box keeps them (with a data: URL to show).
 */
import { MAX_IMAGES, MAX_IMAGE_BASE64 } from '../src/common/webview/limits';
import { button, h } from './dom';

export interface PromptImage {
  readonly mimeType: string;
  readonly data: string;
  readonly url: string;
}

/** `images` as the box keeps them, at most MAX_IMAGES. */
export function promptImages(images: readonly { readonly mimeType: string; readonly data: string }[]): PromptImage[] {
  return images.slice(0, MAX_IMAGES).map((i) => ({ mimeType: i.mimeType, data: i.data, url: `data:${i.mimeType};base64,${i.data}` }));
}

/** Reads the images of a paste into `add` while `room()` allows; true when the paste held images (the box takes it). */
export function readPastedImages(e: ClipboardEvent, room: () => boolean, add: (image: PromptImage) => void): boolean {
  const files = [...(e.clipboardData?.items ?? [])].filter((i) => i.kind === 'file' && /^image\/[\w.+-]+$/.test(i.type)).map((i) => i.getAsFile());
  if (files.length === 0) return false;
  for (const f of files) {
    if (!f || !room()) continue;
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      const data = url.slice(url.indexOf(',') + 1);
      if (data.length <= MAX_IMAGE_BASE64 && room()) add({ mimeType: f.type, data, url });
    };
    reader.readAsDataURL(f);
  }
  return true;
}

/** The row of the box's images, each with its Remove button (`remove(i)` takes out the i-th). */
export function renderImageRow(row: HTMLElement, images: readonly PromptImage[], remove: (index: number) => void): void {
  row.hidden = images.length === 0;
  row.replaceChildren(
    ...images.map((img, i) => {
      const b = button('Remove image', 'close', { class: 'icon-button remove-image' });
      b.addEventListener('click', () => remove(i));
      return h('span', { class: 'prompt-image' }, h('img', { src: img.url, alt: `Pasted image ${i + 1}` }), b);
    }),
  );
}
