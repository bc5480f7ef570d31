// Rows as plain objects, built in JavaScript from better-sqlite3's raw (array) rows.
//
// better-sqlite3 builds each row object in C++, setting one property at a time with a column name
// it makes into a V8 string again for every row: on a message create's hot reads (the inbox, the
// contact, the conversation, the message: a hundred columns) that was about a tenth of the
// service's CPU (`perf record`, issue 14). A raw row is an array of the same values; an object
// literal with the statement's column names, compiled once per statement, turns it into the same
// object (same keys in the same order, same values) at about half the cost.
//
// The names come from SQLite's own description of the statement (`columns()`), never from a
// request. A statement is prepared against the schema the service migrated to at start; its
// column list is fixed from then on, as a running service's schema is.
import type Database from 'better-sqlite3';
import type { Db } from './open';

type Build = (row: unknown[]) => unknown;

/** A function that makes `{name_0: row[from], name_1: row[from + 1], …}` for names[from..to). */
function objectBuilder(names: string[], from: number, to: number): Build {
  const fields: string[] = [];
  for (let i = from; i < to; i++) {
    // A `__proto__` key in a literal would set the prototype, not a property (no table has one).
    if (names[i] === '__proto__') throw new Error('a column named __proto__ cannot be read as a row');
    fields.push(`${JSON.stringify(names[i])}: row[${i}]`);
  }
  return new Function('row', `return {${fields.join(', ')}};`) as Build;
}

export interface Rows<T> {
  get(...params: unknown[]): T | undefined;
  all(...params: unknown[]): T[];
}

/** A join's row read as several records (tupleRows). */
export interface TupleRows<T extends unknown[]> {
  get(...params: unknown[]): T | undefined;
}

export type SplitRows<A, B> = TupleRows<[A, B]>;

const cache = new WeakMap<Db, Map<string, Rows<unknown> | TupleRows<unknown[]>>>();

function cached<R extends Rows<unknown> | TupleRows<unknown[]>>(db: Db, key: string, make: () => R): R {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  let found = perDb.get(key);
  if (!found) perDb.set(key, (found = make()));
  return found as R;
}

function prepareRaw(db: Db, sql: string): { statement: Database.Statement; names: string[] } {
  const statement = db.prepare(sql).raw(true);
  return { statement, names: statement.columns().map((c) => c.name) };
}

/** A cached statement whose `get` and `all` answer what better-sqlite3's would, built faster. */
export function rows<T>(db: Db, sql: string): Rows<T> {
  return cached(db, sql, () => {
    const { statement, names } = prepareRaw(db, sql);
    const build = objectBuilder(names, 0, names.length);
    return {
      get(...params: unknown[]) {
        const row = statement.get(...params) as unknown[] | undefined;
        return row === undefined ? undefined : (build(row) as T);
      },
      all(...params: unknown[]) {
        return (statement.all(...params) as unknown[][]).map((row) => build(row) as T);
      },
    };
  });
}

/** A cached statement of a join whose first `split` columns are one record and the rest another. */
export function splitRows<A, B>(db: Db, sql: string, split: number): SplitRows<A, B> {
  return tupleRows<[A, B]>(db, sql, [split]);
}

/**
 * A cached statement of a join read as several records: the columns before `splits[0]` one, those
 * from `splits[0]` to `splits[1]` the next, and so on to the last column.
 */
export function tupleRows<T extends unknown[]>(db: Db, sql: string, splits: number[]): TupleRows<T> {
  return cached<TupleRows<T>>(db, `${splits.join(',')}\u0000${sql}`, () => {
    const { statement, names } = prepareRaw(db, sql);
    const bounds = [0, ...splits, names.length];
    const parts = bounds.slice(1).map((to, i) => objectBuilder(names, bounds[i]!, to));
    return {
      get(...params: unknown[]) {
        const row = statement.get(...params) as unknown[] | undefined;
        return row === undefined ? undefined : (parts.map((build) => build(row)) as T);
      },
    };
  });
}
