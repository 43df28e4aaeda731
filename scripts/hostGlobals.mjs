// Globals the Node bundles (extension host, CLI, demo agent) must not touch. VS Code's extension host
// logs "PendingMigrationError: navigator is now a global in nodejs" when code reads `navigator`; zod's
// eval probe (`typeof navigator !== "undefined" && navigator.userAgent...`) does at the first parse.
// Node code has no browser to sniff, so the bundles see `navigator` as undefined.
export const NODE_DEFINE = { navigator: 'undefined' };
