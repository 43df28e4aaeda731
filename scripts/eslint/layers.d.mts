// Types of layers.mjs for the TypeScript test that imports it (test/unit/lint/layers.test.ts).
import type { ESLint } from 'eslint';

export function layerOf(file: string): 'common' | 'node' | 'vscode' | 'webview' | null;
export function forbidden(spec: string, file: string): string | null;
export function importsOf(text: string): string[];
export function cycleThrough(start: string, edges: (file: string) => readonly string[]): string[] | null;
declare const plugin: ESLint.Plugin;
export default plugin;
