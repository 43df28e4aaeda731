// Types of scripts/bench-doc.mjs for its unit test.
export function meets(value: unknown, goal: unknown, ratio?: unknown): boolean | null;
export function benchDoc(results: Record<string, unknown>): string;
