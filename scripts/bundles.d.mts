// Types of scripts/bundles.mjs for the TypeScript tests that build bundles in memory.
import type { BuildOptions } from 'esbuild';

export const root: string;
export function bundles(options: { production: boolean }): Record<'extension' | 'cli' | 'demoAgent' | 'webview' | 'highlighter' | 'hostSuite', BuildOptions | null>;
