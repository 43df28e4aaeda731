// Types of scripts/bench-doc.mjs for its unit test.
export function meets(value: unknown, goal: unknown, ratio?: unknown): boolean | null;
export function moved(quiet: Record<string, unknown>, loaded: Record<string, unknown> | undefined, name: string): number | undefined;
export function benchDoc(results: Record<string, unknown>, loaded?: Record<string, unknown>, soak?: Record<string, unknown>): string;
