import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext, Tenant } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { TenantScope, TransactionScope, inTransaction } from '../../platform/tenancy.js';
import { emit } from '../events/catalogue.js';
import { issueCode } from '../accounts/codes.js';
import { staffAccounts } from '../staff/account.js';
import { staffQuery, toStaff, type Staff } from '../staff/view.js';
import { issueApiKey, type CompanyApiKey } from './api-keys.js';
import { columnsOf, companyConflict, defaultSubdomain, type CompanyCreate, type CompanyServices } from './rules.js';
import { toOperatorCompany, type OperatorCompany } from './view.js';

export interface CompanyCreated {
  company: OperatorCompany;
  executiveManager: Staff;
  apiKey: CompanyApiKey;
  passwordSetCodeSent: boolean;
}

/**
 * What the shared account pieces (`accounts/codes.ts`) need to send the new company's staff a code:
 * the platform's services with the company as the tenant and its scope bound to `db`. They read the
 * config, the clock, the notifier, the tenant and the scope, nothing else.
 */
function companyContext(services: CompanyServices, db: Db, tenant: Tenant): HandlerContext {
  return { ...services, tenant, actor: { kind: 'anonymous' }, scope: new TenantScope(db, tenant.id) } as HandlerContext;
}

/**
 * Creates a company (a new tenant), its first staff member, an EXECUTIVE_MANAGER (NORMAL_STAFF, no
 * department, `staff.created` in the company's events), and its first Api-Key, in one transaction. Without a password the manager is sent
 * a code (the staff reset code, `POST /staff/auth/password/reset`) to set one, in the same
 * transaction (the outbox row commits with the rest). A taken identifier, subdomain or dbName is 409.
 */
export async function createCompany(services: CompanyServices, body: CompanyCreate): Promise<CompanyCreated> {
  const { executiveManager: manager, ...fields } = body;
  // Required by the contract (CompanyCreate), so present once the request is validated; the
  // generated type of an allOf does not carry that to the shared fields.
  const required = { name: fields.name!, identifier: fields.identifier!, email: fields.email!, type: fields.type!, kind: fields.kind!, shortName: fields.shortName! };
  const subdomain = fields.subdomain ?? defaultSubdomain(required.identifier);
  const passwordHash = manager.password ? await hashPassword(manager.password) : null;
  const now = services.clock.now();
  try {
    return await inTransaction(services.db, async (trx) => {
      const row = await trx.insertInto('companies').values({
        ...columnsOf(fields),
        name: required.name, identifier: required.identifier, email: required.email, type: required.type, kind: required.kind,
        short_name: required.shortName, subdomain, created_at: now, updated_at: now,
      }).returningAll().executeTakeFirstOrThrow();
      const tenant: Tenant = { id: row.id, name: row.name, subdomain: row.subdomain, firebaseProjectId: row.firebase_project_id, apiKeyMode: 'sandbox' };
      const ctx = companyContext(services, trx, tenant);

      const member = await ctx.scope.insertInto('staff', {
        email: manager.email, phone_number: manager.phoneNumber ?? null, first_name: manager.firstName, other_names: null,
        last_name: manager.lastName, type: 'NORMAL_STAFF', job_title: 'Executive Manager', position: 'EXECUTIVE_MANAGER',
        address: null, staff_no: null, gender: null, date_of_birth: null, department_id: null, password_hash: passwordHash,
        created_by_staff_id: null, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();

      const apiKey = await issueApiKey(services, trx, row.id);
      if (!passwordHash) {
        await issueCode(ctx, member.id, staffAccounts.resetCode, now, {
          channel: 'email', recipient: manager.email, template: MESSAGE_TEMPLATES.executiveManagerSetPasswordCode, vars: { username: manager.email },
        });
      }
      // In the new company's own events (the platform operator made it: the system's doing).
      await emit(services, new TransactionScope(trx, row.id), { by: 'system', id: null },
        { type: 'staff.created', object: { type: 'staff', id: member.id }, data: {} }, now);
      const executiveManager = toStaff(await staffQuery(ctx.scope).where('staff.id', '=', member.id).executeTakeFirstOrThrow());
      return { company: toOperatorCompany(row), executiveManager, apiKey, passwordSetCodeSent: !passwordHash };
    });
  } catch (error) {
    throw companyConflict(error, { identifier: required.identifier, subdomain, dbName: fields.dbName });
  }
}
