/**
 * What the user can do with a subagent of the chat from its card: open its own transcript (a read-only
 * view, subagentModel.ts) and stop its current work. Both act only on a subagent under the chat's session
 * (any depth): a webview message naming any other session id does nothing. The open view's tool cards say
 * what review made of their edits, from the chat's review (its sets are the root session's).
 */
import type { MessageStore, StoreDelta } from '../../common/store';
import type { SubagentEntry } from '../../common/store/model';
import { announcementOf, rootOf } from '../../common/store/sessionTree';
import type { PermissionBroker } from '../../common/permissionBroker';
import type { ElicitationBroker } from '../../common/elicitationBroker';
import type { Event } from '../../common/util/lifecycle';
import type { WebviewToHost } from '../../common/webview/contract';
import { SubagentModel } from '../../common/webview/subagentModel';
import type { ChangeReview, ReviewChange } from '../../common/changes/review';

/** The card of `childSessionId` when it is a subagent under `attached`, else undefined. */
export function subagentUnder(store: MessageStore, attached: string | null, childSessionId: string): SubagentEntry | undefined {
  if (attached === null || childSessionId === attached || rootOf(store, childSessionId) !== attached) return undefined;
  return announcementOf(store, childSessionId);
}

export interface SubagentViewDeps {
  readonly store: MessageStore;
  readonly agentName: string;
  readonly onStoreChanged: Event<readonly StoreDelta[]>;
  readonly broker: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  /** The chat's own handling of a webview message (answers, links, diffs, Stop). */
  act(message: WebviewToHost): void;
  /** The chat's Changes review (none: no badges on the subagent's cards). */
  readonly review?: Pick<ChangeReview, 'views' | 'onDidChange'>;
}

/**
 * A live view of the subagent's own transcript, answering its requests through the chat's brokers; with
 * `answering` false (its transcript expanded in the chat's own panel, which lists the chat's requests
 * already), only its entries and state.
 */
export function subagentModel(d: SubagentViewDeps, childSessionId: string, answering = true): SubagentModel {
  const changed: Event<void> = (listener) => {
    const a = d.broker.onDidChange(() => listener());
    const b = d.elicitations.onDidChange(() => listener());
    return { dispose: () => (a.dispose(), b.dispose()) };
  };
  const pending = { permissions: () => d.broker.pending(childSessionId), elicitations: () => d.elicitations.pending(childSessionId), onDidChange: changed };
  // A subagent's edits are its root turn's: the review keeps them in the root session's sets.
  const review = d.review;
  const root = () => rootOf(d.store, childSessionId);
  const changes = review && {
    views: () => review.views(root()),
    onDidChange: (listener: (c: ReviewChange) => void) => review.onDidChange((c) => c.sessionId === root() && listener(c)),
  };
  return new SubagentModel({
    sessionId: childSessionId,
    agentName: d.agentName,
    session: (id) => d.store.session(id),
    notices: (id) => d.store.notices(id),
    onStoreChanged: d.onStoreChanged,
    ...(answering ? { pending, ...(changes ? { changes } : {}) } : {}),
    act: d.act,
  });
}
