/**
 * The chats' Changes reviews the editor shows hunks of: each chat's review (turnChanges.ts) joins when
 * it is made and leaves when its chat stops. For a file, the change shown is the newest open one of any
 * chat (the one whose hunks the file holds on top); when it is settled, an older one shows if any.
 * The state stays the reviews' (one owner); this only finds it.
 */
import * as vscode from 'vscode';
import nodePath from 'node:path';
import type { ChangeReview } from '../../common/changes/review';
import { isOpen, type FileChange } from '../../common/changes/model';

export interface FileUnderReview {
  /** This window's number for the review (commands name it: set ids are per chat). */
  readonly reviewId: number;
  readonly review: ChangeReview;
  readonly agentName: string;
  readonly setId: string;
  readonly file: FileChange & { readonly agentText: string };
}

class EditorReviews {
  private readonly reviews = new Map<number, { review: ChangeReview; agentName: () => string }>();
  private seq = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** A review joined, left, or its change sets changed. */
  readonly onDidChange = this.changed.event;

  add(review: ChangeReview, agentName: () => string): void {
    const id = ++this.seq;
    this.reviews.set(id, { review, agentName });
    review.onDidChange(() => this.changed.fire());
    review.onWillDispose(() => {
      this.reviews.delete(id);
      this.changed.fire();
    });
    this.changed.fire();
  }

  /** The open change of `fsPath` shown in the editor, if any. */
  fileAt(fsPath: string): FileUnderReview | undefined {
    const path = nodePath.normalize(fsPath);
    let best: (FileUnderReview & { order: number }) | undefined;
    for (const [reviewId, { review, agentName }] of this.reviews) {
      const sets = review.state.sets;
      for (let i = sets.length - 1; i >= 0; i--) {
        const set = sets[i]!;
        const file = set.ended ? set.files.find((f) => f.path === path && isOpen(f) && f.blocked === null && f.agentText !== null) : undefined;
        if (!file || file.agentText === null) continue;
        const order = Number(set.id.slice(1)) || 0;
        if (!best || order > best.order) best = { reviewId, review, agentName: agentName(), setId: set.id, file: { ...file, agentText: file.agentText }, order };
        break;
      }
    }
    return best;
  }

  review(reviewId: number): ChangeReview | undefined {
    return this.reviews.get(reviewId)?.review;
  }
}

/** One per extension host: the chats register here as they are made. */
export const editorReviews = new EditorReviews();
