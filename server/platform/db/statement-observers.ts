import { performance } from 'node:perf_hooks';
import type { CompiledQuery, DatabaseConnection, Driver } from 'kysely';

/** One statement the database answered (or refused), as metrics and traces see it. */
export interface ObservedStatement {
  /** The statement's text with `$n` placeholders: never its values. */
  sql: string;
  /** When it was sent, in milliseconds since the epoch (fractional). */
  startTime: number;
  durationMs: number;
  /** Set when the database refused it or the connection failed. */
  error?: unknown;
}

export type StatementObserver = (statement: ObservedStatement) => void;

const OBSERVED = Symbol('coverline.observedConnection');

/**
 * `driver` with every statement its connections send (BEGIN and COMMIT included) told to the
 * observers in `observers`, which may change at any time; with none, statements go as they are.
 * The connection objects are the driver's own, patched once, so the driver's other calls
 * (transactions, savepoints) still get the objects they made.
 */
export function observedDriver(driver: Driver, observers: ReadonlySet<StatementObserver>): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const connection = await acquire() as DatabaseConnection & { [OBSERVED]?: true };
    if (!connection[OBSERVED]) {
      connection[OBSERVED] = true;
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = (async (query: CompiledQuery) => {
        if (observers.size === 0) return execute(query);
        const began = performance.now();
        const startTime = performance.timeOrigin + began;
        try {
          const result = await execute(query);
          tell(observers, { sql: query.sql, startTime, durationMs: performance.now() - began });
          return result;
        } catch (error) {
          tell(observers, { sql: query.sql, startTime, durationMs: performance.now() - began, error });
          throw error;
        }
      }) as DatabaseConnection['executeQuery'];
    }
    return connection;
  };
  return driver;
}

/** An observer that throws must not fail the statement it watched. */
function tell(observers: ReadonlySet<StatementObserver>, statement: ObservedStatement) {
  for (const observer of observers) {
    try { observer(statement); } catch { /* observing is best effort */ }
  }
}
