// The list's order as the inbox's commands read it (j and k, select all, resolve and open the
// next): the ids of the rows on screen, in that order. Worked out once the frame showing new rows
// is done, not in the task that changed them: a triage key changes a 10,000-row view's rows, and
// mapping them all to ids in that key's task (about 0.3 ms of a 3.8 ms resolve, in a 50 µs profile
// of twelve triage rounds) delayed the frame that shows the change. A command that asks before then
// (a key pressed within the frame) has them worked out on the spot.
import type { CachedConversation } from '../db/schema';
import { afterNextFrame } from '../platform/frames';

export class ListOrder<R extends { id: number } = CachedConversation> {
  private rows: readonly R[] = [];
  private ids: readonly number[] | undefined = [];
  private byId: ReadonlyMap<number, R> | undefined;
  private cancel: (() => void) | undefined;

  /** The rows the list shows, in its order (the same array again changes nothing). */
  show(rows: readonly R[]): void {
    if (rows === this.rows) return;
    this.rows = rows;
    this.ids = undefined;
    this.byId = undefined;
    this.cancel?.();
    this.cancel = afterNextFrame(() => {
      this.cancel = undefined;
      void this.current;
    });
  }

  /**
   * The row shown with this id, as the list shows it (the agent's changes in flight applied). Looked
   * up in a map made once per change of rows, when first asked: the palette asks for every picked
   * row, and a scan of the view for each was 10,000² steps after "select all".
   */
  row(id: number): R | undefined {
    return (this.byId ??= new Map(this.rows.map((r) => [r.id, r]))).get(id);
  }

  /** Their ids, in order; worked out once per change of rows. */
  get current(): readonly number[] {
    return (this.ids ??= this.rows.map((r) => r.id));
  }
}
