/**
 * The npm package's version and homepage, for the reports the CLI writes. The build replaces these
 * `process.env` reads with package.json's values (scripts/bundles.mjs); run from source they say `dev`.
 */
export const PACKAGE_VERSION = process.env.ACP_CHAT_VERSION ?? 'dev';
export const PACKAGE_HOMEPAGE = process.env.ACP_CHAT_HOMEPAGE ?? 'https://github.com/acp-chat/acp-chat#readme';
