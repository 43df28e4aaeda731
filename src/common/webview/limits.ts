/** Limits shared by the webview and the host (a zod-free module, so the webview bundle stays small). */

/** Pasted images per prompt: a few screenshots, not a photo album. */
export const MAX_IMAGES = 8;
/** Base64 characters per image (about 10 MB of image data). */
export const MAX_IMAGE_BASE64 = 14 * 1024 * 1024;
/** Subagent transcripts expanded in their cards at once (each is a feed the host runs while it is). */
export const MAX_EXPANDED_SUBAGENTS = 32;
