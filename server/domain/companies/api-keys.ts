import { inTransaction } from '../../platform/tenancy.js';
import { credentialTag } from '../../platform/auth/credential-cache.js';
import type { components } from '../../../generated/api.js';
import { apiKeyPrefix, hashApiKey, newApiKey } from '../../platform/auth/api-keys.js';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/errors.js';
import { companyById, type CompanyServices } from './rules.js';

export type CompanyApiKey = components['schemas']['CompanyApiKey'];

/**
 * A company's Api-Keys, which name it as the tenant on every call of its application: made with
 * the key answered in clear once (only its SHA-256 is stored), and revoked. Together they rotate a key.
 */

/** Gives the company a new key through `db` (a transaction's, to commit with the company); answers it in clear. */
export async function issueApiKey(services: Pick<CompanyServices, 'config' | 'clock'>, db: Db, companyId: string, name?: string): Promise<CompanyApiKey> {
  const mode = services.config.production ? 'production' : 'sandbox';
  const key = newApiKey(mode);
  const row = await db.insertInto('api_keys').values({
    tenant_id: companyId, name: name ?? `${mode} key`, key_hash: hashApiKey(key), key_prefix: apiKeyPrefix(key), mode,
    created_at: services.clock.now(),
  }).returning(['id', 'name', 'mode', 'key_prefix', 'created_at']).executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, mode: row.mode, prefix: row.key_prefix, createdAt: new Date(row.created_at).toISOString(), key };
}

/** A new key for an existing company (404 when there is none). */
export async function createCompanyApiKey(services: CompanyServices, companyId: string, name?: string): Promise<CompanyApiKey> {
  return inTransaction(services.db, async (trx) => {
    await companyById(trx, companyId, { forUpdate: true });
    return issueApiKey(services, trx, companyId, name);
  });
}

/** Revokes one of the company's keys; revoking it again changes nothing. Another company's key is 404. */
export async function revokeCompanyApiKey(services: CompanyServices, companyId: string, apiKeyId: string): Promise<void> {
  const key = await services.db.selectFrom('api_keys').select(['id', 'revoked_at'])
    .where('id', '=', apiKeyId).where('tenant_id', '=', companyId).executeTakeFirst();
  if (!key) throw notFound('Company Api-Key');
  if (key.revoked_at) return;
  await services.db.updateTable('api_keys').set({ revoked_at: services.clock.now() })
    .where('id', '=', apiKeyId).where('revoked_at', 'is', null).execute();
  // Its callers' kept credentials go at once here; on other instances as the notice arrives.
  services.credentials?.forget(credentialTag.tenant(companyId));
}
