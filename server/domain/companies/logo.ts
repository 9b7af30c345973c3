import type { HandlerContext, Tenant } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { FileResult, Part } from '../../platform/files.js';
import { API_PREFIX } from '../../platform/openapi.js';
import { ObjectNotFoundError } from '../../platform/storage/storage.js';
import { TenantScope, inTransaction } from '../../platform/tenancy.js';
import { discardStored, multipartError, safeFilename, storageOf, storeFile, type StoredFile } from '../documents/store.js';
import { companyById, type CompanyServices } from './rules.js';
import { toOperatorCompany, type OperatorCompany } from './view.js';

/** The largest logo accepted (or the upload limit, when that is smaller). */
export const LOGO_MAX_BYTES = 1024 * 1024;
const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
type LogoType = (typeof LOGO_TYPES)[number];

/**
 * The documents' storage pieces (type by the bytes, streamed into storage, all or nothing) used
 * for a company's logo: they read the config (the size limit), the storage and the tenant, whose
 * id starts the storage key.
 */
function logoContext(services: CompanyServices, companyId: string): HandlerContext {
  const tenant: Tenant = { id: companyId, name: '', subdomain: '', firebaseProjectId: null, apiKeyMode: 'sandbox' };
  const maxUploadBytes = Math.min(LOGO_MAX_BYTES, services.config.maxUploadBytes);
  return {
    ...services, config: { ...services.config, maxUploadBytes }, tenant, actor: { kind: 'anonymous' }, scope: new TenantScope(services.db, companyId),
  } as HandlerContext;
}

/** Where a company's logo is served: `GET /companies/{companyId}/logo` of this API. */
export const logoUrl = (services: Pick<CompanyServices, 'config'>, companyId: string) =>
  `${services.config.publicBaseUrl}${API_PREFIX}/companies/${companyId}/logo`;

/**
 * Stores one file part named `logo` (JPEG, PNG or WebP by its bytes, at most 1 MiB) as the
 * company's logo, replacing the old one (whose bytes are removed once the new row is committed).
 * Whatever fails, the new bytes are removed and the company is unchanged.
 */
export async function storeCompanyLogo(services: CompanyServices, companyId: string, parts: AsyncIterable<Part> | undefined): Promise<OperatorCompany> {
  await companyById(services.db, companyId);
  if (!parts) throw badRequest('Send the logo as one file part named logo', 'NO_FILES');
  const ctx = logoContext(services, companyId);
  const keys: string[] = [];
  let stored: StoredFile | undefined;
  let replaced: string | null = null;
  let company: OperatorCompany;
  try {
    for await (const part of parts) {
      if (part.kind !== 'file' || part.field !== 'logo' || stored) {
        throw badRequest(`Unexpected ${part.kind} '${part.field}': send one file part named logo`, 'UNEXPECTED_FIELD');
      }
      const label = `logo ${JSON.stringify(safeFilename(part.filename))}`;
      stored = await storeFile(ctx, { filename: part.filename, stream: part.stream }, { label, keys, allowed: [...LOGO_TYPES] });
    }
    if (!stored) throw badRequest('Send the logo as one file part named logo', 'NO_FILES');
    const file = stored;
    company = await inTransaction(services.db, async (trx) => {
      const before = await companyById(trx, companyId, { forUpdate: true });
      replaced = before.logo_storage_key;
      const row = await trx.updateTable('companies').set({
        logo_storage_key: file.key, logo_content_type: file.contentType as LogoType, logo_size: file.size,
        logo_url: logoUrl(services, companyId), updated_at: services.clock.now(),
      }).where('id', '=', companyId).returningAll().executeTakeFirstOrThrow();
      return toOperatorCompany(row);
    });
  } catch (error) {
    await discardStored(ctx, keys);
    throw multipartError(error, 1, ctx.config.maxUploadBytes);
  }
  if (replaced) await discardStored(ctx, [replaced]);
  return company;
}

/** The company's logo bytes, or 404 when it has none. */
export async function openCompanyLogo(services: CompanyServices, companyId: string): Promise<FileResult> {
  const row = await services.db.selectFrom('companies').select(['logo_storage_key', 'logo_content_type', 'logo_size'])
    .where('id', '=', companyId).executeTakeFirst();
  if (!row?.logo_storage_key || !row.logo_content_type) throw notFound('Company logo');
  try {
    const body = await storageOf(services as HandlerContext).get(row.logo_storage_key);
    return {
      kind: 'file', body, contentType: row.logo_content_type, size: row.logo_size ?? undefined, disposition: 'inline',
      headers: { 'cache-control': 'public, max-age=300' },
    };
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound('Company logo');
    throw error;
  }
}
