// The list's order as the inbox's commands read it (j and k, select all, resolve and open the
// next): the ids of the rows on screen, in that order. Worked out when a command asks for it, not
// each time the rows change: a triage key changes a 10,000-row view's rows, and mapping them all to
// ids in that key's task (about 0.3 ms of a 3.8 ms resolve, in a 50 µs profile of twelve triage
// rounds) bought a list that no one read before the next key.

export class ListOrder {
  private rows: readonly { id: number }[] = [];
  private ids: readonly number[] | undefined = [];

  /** The rows the list shows, in its order (the same array again changes nothing). */
  show(rows: readonly { id: number }[]): void {
    if (rows === this.rows) return;
    this.rows = rows;
    this.ids = undefined;
  }

  /** Their ids, in order; worked out once per change of rows. */
  get current(): readonly number[] {
    return (this.ids ??= this.rows.map((r) => r.id));
  }
}
