import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// A statement that inserts jobs announces it on the `coverline_jobs` channel at commit (NOTIFY), so
// every instance's worker (server/platform/jobs/worker.ts) polls at once rather than at its next
// timed poll. One notice per statement, empty: PostgreSQL folds identical notices of one
// transaction into one, and a worker's poll claims whatever is ready. Statement-level, so it also
// fires for jobs inserted by a data-modifying CTE (a business event's deliveries); silent when the
// statement inserted nothing (an enqueue whose dedupe key is taken: the recurring slots every poll tries).
const up = [
  `create function coverline_job_notice() returns trigger language plpgsql as $$
   begin
     if exists (select from inserted) then perform pg_notify('coverline_jobs', ''); end if;
     return null;
   end $$`,
  `create trigger jobs_notice after insert on jobs referencing new table as inserted
     for each statement execute function coverline_job_notice()`,
];

const down = [
  `drop trigger jobs_notice on jobs`,
  `drop function coverline_job_notice()`,
];

export const jobNotices = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
