/**
 * The unstable plans by id (v2 draft, and v1 behind `clientCapabilities.plan`): `plan_update` sets one plan,
 * items, Markdown or a file, by its `planId`; `plan_removed` takes one away. The old v1 `plan` update (one
 * unnamed list) stays as it was. The schemas are in updates.ts (its tolerant fields); this file only types and
 * maps.
 */
/** A plan entry as `zPlanEntry` (updates.ts) parses it; spelled here so the two files do not import each other. */
interface PlanEntryUpdate {
  readonly content: string;
  readonly priority: string;
  readonly status: string;
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/** `zPlanUpdate`'s `plan`, as parsed. */
interface ParsedPlan {
  readonly type: string;
  readonly planId: string;
  readonly entries?: readonly PlanEntryUpdate[] | undefined;
  readonly content?: string | undefined;
  readonly uri?: string | undefined;
}

/** One plan as the store keeps it. */
export type AgentPlan =
  | { readonly planId: string; readonly type: 'items'; readonly entries: readonly PlanEntryUpdate[] }
  | { readonly planId: string; readonly type: 'markdown'; readonly content: string }
  | { readonly planId: string; readonly type: 'file'; readonly uri: string };

/** The plan a `plan_update` carries; why it was ignored (a missing field); null for a type we do not know. */
export function planOf(p: ParsedPlan): AgentPlan | string | null {
  const { planId } = p;
  if (p.type === 'items') return { planId, type: 'items', entries: p.entries ?? [] };
  if (p.type === 'markdown') return p.content === undefined ? `plan_update '${planId}' of type markdown without content ignored` : { planId, type: 'markdown', content: p.content };
  if (p.type === 'file') return p.uri === undefined ? `plan_update '${planId}' of type file without uri ignored` : { planId, type: 'file', uri: p.uri };
  return null;
}
