/**
 * Disposables without the VS Code API, structurally compatible with `vscode.Disposable`, so src/common and
 * src/node can own resources and src/vscode can push them into `context.subscriptions`.
 */
export interface IDisposable {
  dispose(): void;
}

function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns a set of disposables; disposing it disposes them once, newest first. Adding after dispose disposes at once. */
class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
  }
}

/** Base class: `this.register(x)` ties x's lifetime to this object's. */
export abstract class Disposable implements IDisposable {
  private readonly disposables = new DisposableStore();

  protected register<T extends IDisposable>(item: T): T {
    return this.disposables.add(item);
  }

  protected get isDisposed(): boolean {
    return this.disposables.isDisposed;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}

/** A minimal typed event emitter (VS Code's `Event<T>` shape: subscribe returns a disposable). */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

export class Emitter<T> implements IDisposable {
  private listeners: ((e: T) => void)[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    this.listeners.push(listener);
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  /**
   * Calls every listener, even when one throws (one broken subscriber must not starve the others, e.g. the
   * store behind a failing view); the first error is rethrown afterwards so it is not swallowed.
   */
  fire(e: T): void {
    let failed: { error: unknown } | undefined;
    for (const l of this.listeners.slice()) {
      try {
        l(e);
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
