/**
 * A session's plans by id (unstable `plan_update` / `plan_removed`): a plan keeps its place when it is
 * updated, a new one goes last, a removed one goes. The old single v1 `plan` is the session's `plan` field and
 * is not touched here. Pure functions on the list, so the session only stores the result.
 */
import type { AgentPlan } from '../protocol/planUpdates';
import type { StepDeps } from './stepDeps';

/** The list with `plan` set: replaced where its id already is, else appended. */
export function upsertPlan(plans: readonly AgentPlan[], plan: AgentPlan): readonly AgentPlan[] {
  const at = plans.findIndex((p) => p.planId === plan.planId);
  return at < 0 ? [...plans, plan] : plans.map((p, i) => (i === at ? plan : p));
}

/** The list without `planId`; unchanged (and said) when no plan has that id. */
export function removePlan(plans: readonly AgentPlan[], planId: string, ctx: StepDeps): readonly AgentPlan[] {
  if (plans.some((p) => p.planId === planId)) return plans.filter((p) => p.planId !== planId);
  ctx.diagnostic('warning', `plan_removed names plan '${planId.slice(0, 80)}', which this session does not have; ignored`);
  return plans;
}
