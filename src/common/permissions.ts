/**
 * Automatic answers to `session/request_permission` from the user's rules. Options are chosen by their
 * `kind`, never by id: option ids differ from agent to agent.
 */
import type { PermissionRule } from './config/settings';

export interface PermissionOptionLike {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
}

export interface ToolCallLike {
  readonly kind?: string | null;
  readonly title?: string | null;
}

/** The option a decision maps to: allow prefers allow_once, reject prefers reject_once. */
export function optionFor(decision: 'allow' | 'reject', options: readonly PermissionOptionLike[]): PermissionOptionLike | undefined {
  const order = decision === 'allow' ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const o = options.find((x) => x.kind === kind);
    if (o) return o;
  }
  return undefined;
}

/** The first matching rule's option, or undefined when the user must be asked. */
export function autoAnswer(
  rules: readonly PermissionRule[],
  toolCall: ToolCallLike,
  options: readonly PermissionOptionLike[],
): { option: PermissionOptionLike; rule: PermissionRule } | undefined {
  for (const rule of rules) {
    if (rule.toolKind !== undefined && rule.toolKind !== (toolCall.kind ?? 'other')) continue;
    if (rule.titlePattern !== undefined && !new RegExp(rule.titlePattern).test(toolCall.title ?? '')) continue;
    const option = optionFor(rule.action, options);
    if (option) return { option, rule };
  }
  return undefined;
}
