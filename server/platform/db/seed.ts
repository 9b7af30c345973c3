import { inTransaction } from '../tenancy.js';
import { createRequire } from 'node:module';
import { apiKeyPrefix, hashApiKey } from '../auth/api-keys.js';
import type { Db } from './database.js';
import type { CommissionRow, CompanyKind, CompanyType, StaffPosition, StaffType } from './schema.js';

const require = createRequire(import.meta.url);

interface CompanySeed {
  key: string; name: string; identifier: string; email: string; type: CompanyType; kind: CompanyKind;
  shortName: string; description: string; primaryColor: string; smsSenderId: string; subdomain: string;
  address: string; country: string; firebaseProjectId?: string;
}

interface ProductSeed {
  code: string; name: string; category: string; subCategory: string | null; insurer: string;
  id: string; distribution: 'ONLINE' | 'OFFLINE'; description: string; premiumRates: Record<string, number>; benefits: string[];
  standardCommission: CommissionRow | null; overriderCommission: CommissionRow | null; otherCommission: CommissionRow | null;
}

/** Inserts a company if its subdomain is new; answers its id either way. */
export async function ensureCompany(db: Db, company: Omit<CompanySeed, 'key'>): Promise<string> {
  const existing = await db.selectFrom('companies').select('id').where('subdomain', '=', company.subdomain).executeTakeFirst();
  if (existing) return existing.id;
  const row = await db.insertInto('companies').values({
    name: company.name, identifier: company.identifier, email: company.email, type: company.type, kind: company.kind,
    short_name: company.shortName, description: company.description, primary_color: company.primaryColor,
    sms_sender_id: company.smsSenderId, subdomain: company.subdomain, address: company.address, country: company.country,
    firebase_project_id: company.firebaseProjectId ?? null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Gives a tenant an Api-Key (stored hashed) unless it already has that key. */
export async function ensureApiKey(db: Db, tenantId: string, key: string, mode: 'sandbox' | 'production' = 'sandbox') {
  await db.insertInto('api_keys')
    .values({ tenant_id: tenantId, name: `${mode} key`, key_hash: hashApiKey(key), key_prefix: apiKeyPrefix(key), mode })
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .execute();
}

/**
 * The sandbox on a fresh database: the sandbox broker (its Api-Key from SANDBOX_API_KEY), insurers
 * of each kind and other companies, and a product per policy type assigned to the sandbox tenant.
 * Safe to run on every start: nothing present is written twice.
 */
export async function seedSandbox(db: Db, sandboxApiKey: string): Promise<{ tenantId: string }> {
  return inTransaction(db, async (trx) => {
    const companies: CompanySeed[] = require('./data/sandbox-companies.json');
    const ids = new Map<string, string>();
    for (const { key, ...company } of companies) ids.set(key, await ensureCompany(trx, company));
    const tenantId = ids.get('sandbox')!;
    await ensureApiKey(trx, tenantId, sandboxApiKey);

    const products: ProductSeed[] = require('./data/sandbox-products.json');
    for (const product of products) {
      const insurerId = ids.get(product.insurer)!;
      const inserted = await trx.insertInto('products').values({
        id: product.id, owner_tenant_id: tenantId, insurer_id: insurerId, name: product.name, code: product.code,
        description: product.description, premium_rates: JSON.stringify(product.premiumRates), category: product.category,
        sub_category: product.subCategory, benefits: JSON.stringify(product.benefits), status: 'ACTIVE',
        distribution: product.distribution, standard_commission: JSON.stringify(product.standardCommission),
        overrider_commission: JSON.stringify(product.overriderCommission), other_commission: JSON.stringify(product.otherCommission),
      }).onConflict((oc) => oc.columns(['insurer_id', 'code']).doNothing()).returning('id').executeTakeFirst();
      if (inserted) {
        await trx.insertInto('product_assignments').values({ tenant_id: tenantId, product_id: inserted.id }).execute();
      }
    }
    await seedSandboxStaff(trx, tenantId);
    return { tenantId };
  });
}

interface StaffSeed {
  passwordHash: string;
  branches: { id: string; name: string; address: string; description: string }[];
  departments: { id: string; branch: string; name: string; description: string }[];
  staff: {
    id: string; email: string; phoneNumber: string; firstName: string; lastName: string; type: StaffType; position: StaffPosition;
    jobTitle: string; staffNo: string; department: string | null;
  }[];
}

/**
 * The sandbox broker's organisation: a branch, two departments and a staff member of every type
 * and position, all with the documented password (its argon2id hash is in the data file, so a
 * fresh database needs no hashing). Rows already there are left as they are.
 */
async function seedSandboxStaff(db: Db, tenantId: string) {
  const seed: StaffSeed = require('./data/sandbox-staff.json');
  for (const branch of seed.branches) {
    await db.insertInto('branches').values({ tenant_id: tenantId, ...branch }).onConflict((oc) => oc.doNothing()).execute();
  }
  for (const { branch, ...department } of seed.departments) {
    await db.insertInto('departments').values({ tenant_id: tenantId, branch_id: branch, ...department })
      .onConflict((oc) => oc.doNothing()).execute();
  }
  for (const member of seed.staff) {
    await db.insertInto('staff').values({
      tenant_id: tenantId, id: member.id, email: member.email, phone_number: member.phoneNumber, first_name: member.firstName,
      other_names: null, last_name: member.lastName, type: member.type, job_title: member.jobTitle, position: member.position,
      address: null, staff_no: member.staffNo, gender: null, date_of_birth: null, department_id: member.department,
      password_hash: seed.passwordHash, created_by_staff_id: null,
    }).onConflict((oc) => oc.doNothing()).execute();
  }
}
