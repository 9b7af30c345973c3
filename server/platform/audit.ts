import type { Db } from './db/database.js';
import { databaseView } from './db/transaction-settings.js';

/** The transaction setting the audited tables' trigger reads (migration 029). */
export const AUDIT_SETTING = 'coverline.audit';

/**
 * Who made a call and which, as every row it writes to an audited table records it in
 * `audit_events`: a staff member (with the position they held) or the platform operator; the
 * operation (`action`); the request's id and the caller's address; when (the clock's time).
 */
export interface AuditContext {
  actorKind: 'staff' | 'operator';
  /** null for the operator, and for a staff member not signed in (a password reset by code): see `actorIsRow`. */
  actorId: string | null;
  actorPosition: string | null;
  /** A staff member proving who they are by a code: the actor is the staff member whose row (or code) it writes. */
  actorIsRow?: boolean;
  /** The company the actor works for: its trail holds the call's rows; null for the operator (each row's own company). */
  tenantId: string | null;
  action: string;
  requestId: string;
  address: string | null;
  at: Date;
}

/**
 * `db` for one call: its every write recorded in the audit trail as `audit` says (when given), its
 * every statement told to `onStatement` (when given: the metrics' count of the request's statements).
 */
export function callDatabase(db: Db, { audit, onStatement }: { audit?: AuditContext; onStatement?: () => void }): Db {
  if (!audit && !onStatement) return db;
  return databaseView(db, {
    settings: audit ? { [AUDIT_SETTING]: JSON.stringify({ ...audit, at: audit.at.toISOString() }) } : undefined,
    onStatement,
  });
}
