/** The content blocks a prompt is sent as (chatThread.ts sends them, as a turn or a steer). */
import type { ContentBlock } from '../../common/protocol/content';
import type { AgentCapabilities } from '../../common/protocol/requests';
import { contextBlocks } from '../../common/context';
import type { QueuedPrompt } from '../../common/promptQueue';
import type { ChatOptions } from './chatPorts';

/**
 * Its text (with @-mentions resolved by `buildPrompt`), its context, the images the agent accepts (none
 * accepted: `imagesDropped` is called and they are left out) and what it carried; never empty.
 */
export async function promptBlocks(
  { text, images, context, carried }: QueuedPrompt,
  caps: AgentCapabilities | undefined,
  buildPrompt: ChatOptions['buildPrompt'],
  imagesDropped: () => void,
): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = text ? (buildPrompt ? await buildPrompt(text, caps) : [{ type: 'text' as const, text }]) : [];
  if (context?.length) blocks.push(...contextBlocks(context, caps?.promptCapabilities?.embeddedContext === true));
  if (images.length && caps?.promptCapabilities?.image === true) {
    for (const img of images) blocks.push({ type: 'image', mimeType: img.mimeType, data: img.data });
  } else if (images.length) {
    imagesDropped();
  }
  blocks.push(...(carried ?? []));
  if (blocks.length === 0) blocks.push({ type: 'text', text: '(image)' }); // a prompt must not be empty
  return blocks;
}
