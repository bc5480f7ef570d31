// Whether the service answered the session's last read of a conversation (its record, its newest
// messages, an older page), for the view's "Offline" banner.
//
// The banner used to rest on the open conversation's own reads alone. A switch starts new reads,
// and main answers "unreachable" only after its own retries (0.4-1 s against a stopped service),
// so offline the banner went with every switch and came back a moment later, moving the thread
// 28 px each time and having its virtualizer measure it again (issue 14: seen in the switch
// bench, which runs offline). The session knows the service was unreachable a moment ago; until a
// read says otherwise, that is what the new conversation shows too.
import { isUnreachable } from '../platform/call';

export class ServiceReachability {
  private unreachable = false;
  private readonly listeners = new Set<() => void>();

  /**
   * Takes what a read that always asks the service came to: answered (even "not found": the
   * service answered), or failed (see `failed`).
   */
  heard<T>(read: Promise<T>): Promise<T> {
    return read.then(
      (value) => {
        this.set(false);
        return value;
      },
      (error: unknown) => {
        this.failed(error);
        throw error;
      },
    );
  }

  /** A read failed: only a failure to reach the service says it is unreachable; any other says nothing. */
  failed(error: unknown): void {
    if (isUnreachable(error)) this.set(true);
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The last read that came to something could not reach the service. */
  readonly isUnreachable = (): boolean => this.unreachable;

  private set(unreachable: boolean): void {
    if (this.unreachable === unreachable) return;
    this.unreachable = unreachable;
    for (const listener of [...this.listeners]) listener();
  }
}
