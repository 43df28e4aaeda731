/** Bumped on any incompatible change to contract.ts; a webview from another version asks for a reload. */
export const WEBVIEW_PROTOCOL_VERSION = 3;
