import { createQueryId, type Compilable, type Kysely, type RootOperationNode } from 'kysely';
import type { Database } from './schema.js';

/** A parameter of a query built once: the place its value takes among the compiled query's parameters. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  query: RootOperationNode;
  /** The compiled parameters: a Slot where a call's value goes, else the constant the builder wrote. */
  parameters: readonly unknown[];
}

/**
 * A query built and compiled once, then run with each call's values. Kysely builds a query's
 * operation tree and then its SQL text on every call; for the API's hottest reads (a product with
 * its insurer and assignments, a policy with six joins) that cost more CPU than PostgreSQL spent
 * running them (`npm run bench -- --profile`).
 *
 * `build` is given a stand-in for each parameter; it must pass them to the builder as values only
 * (`where(column, '=', params.id)`, `${params.tenantId}` in `sql`) and never look at them, so the
 * query's shape cannot depend on a value: a parameter that changes the shape (an optional filter,
 * a list for `in`) needs a query of its own. A stand-in left unused, or a value the builder read,
 * fails at the first call.
 */
export function compiledQuery<P extends Record<string, unknown>, R>(build: (db: Kysely<Database>, params: P) => Compilable<R>) {
  let compiled: Compiled | undefined;
  return async (db: Kysely<Database>, params: P): Promise<R[]> => {
    compiled ??= compile(db, build);
    const parameters = compiled.parameters.map((value) => (value instanceof Slot ? params[value.name] : value));
    const { rows } = await db.executeQuery<R>({ sql: compiled.sql, query: compiled.query, parameters, queryId: createQueryId() });
    return rows;
  };
}

function compile<P extends Record<string, unknown>, R>(db: Kysely<Database>, build: (db: Kysely<Database>, params: P) => Compilable<R>): Compiled {
  const slots = new Map<string, Slot>();
  const params = new Proxy({}, {
    get: (_target, name) => {
      if (typeof name !== 'string') throw new Error('a compiled query read its parameters as something other than values');
      const slot = slots.get(name) ?? new Slot(name);
      slots.set(name, slot);
      return slot;
    },
  }) as P;
  const { sql, query, parameters } = build(db, params).compile();
  for (const slot of slots.values()) {
    if (!parameters.includes(slot)) throw new Error(`compiled query: the parameter ${slot.name} is not among the query's values`);
  }
  return { sql, query, parameters };
}

/**
 * `compiledQuery` for a query of a few shapes (an optional filter present or not, one column of
 * two): one compiled per shape, on its first use. The shape key must take few values (never a
 * value from the caller); the build reads the shape, never the parameters.
 */
export function compiledQueries<S extends string, P extends Record<string, unknown>, R>(build: (shape: S, db: Kysely<Database>, params: P) => Compilable<R>) {
  const byShape = new Map<S, (db: Kysely<Database>, params: P) => Promise<R[]>>();
  return (shape: S, db: Kysely<Database>, params: P): Promise<R[]> => {
    let query = byShape.get(shape);
    if (!query) {
      query = compiledQuery((compiling: Kysely<Database>, stand: P) => build(shape, compiling, stand));
      byShape.set(shape, query);
    }
    return query(db, params);
  };
}
