/**
 * Plans by id (unstable `plan_update` / `plan_removed`) as the checker follows them: which planIds each
 * session's agent has sent, so a `plan_removed` for a plan it never sent (or already removed) is caught. The
 * capability rule (`clientCapabilities.plan`) is in sessionRules.ts with the other capabilities. Maps, so a
 * planId such as `__proto__` is only data.
 */
type Json = Record<string, unknown>;
type Report = (line: number, message: string, sessionId: string) => void;

export class PlanTraffic {
  private readonly plans = new Map<string, Set<string>>();

  constructor(private readonly unknown: Report) {}

  /** One `session/update`'s params. */
  update(params: Json, line: number): void {
    const sid = params['sessionId'];
    const u = params['update'];
    if (typeof sid !== 'string' || typeof u !== 'object' || u === null || Array.isArray(u)) return;
    const update = u as Json;
    const ids = this.plans.get(sid) ?? new Set<string>();
    this.plans.set(sid, ids);
    if (update['sessionUpdate'] === 'plan_update') {
      const plan = update['plan'];
      if (typeof plan === 'object' && plan !== null && typeof (plan as Json)['planId'] === 'string') ids.add((plan as Json)['planId'] as string);
    } else if (update['sessionUpdate'] === 'plan_removed' && typeof update['planId'] === 'string') {
      if (!ids.delete(update['planId']))
        this.unknown(
          line,
          `plan_removed for plan ${JSON.stringify(update['planId'].slice(0, 40))}, which this session never sent (or removed already): remove only plans you sent with plan_update`,
          sid,
        );
    }
  }
}
