import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { ClientRow, ClientUpdate } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';
import type { Part } from '../../platform/files.js';
import { checkAgainstSchema } from '../../platform/validation.js';
import { discardStored, multipartError, recordDocuments, storeFile, type StoredFile } from '../documents/store.js';
import { documentUrl } from '../documents/view.js';
import { toClientAccount, type ClientAccount } from './account.js';
import { checkFieldsApply, clientColumns, type ClientFieldValues } from './fields.js';
import { checkClientFields } from './rules.js';
import { lockedClient, recordClientChange } from './events.js';
import type { EventActor } from '../../platform/events.js';

type ProfileUpdate = components['schemas']['UpdateAccountRequest'];

/**
 * Writes the profile fields sent (after the checks JSON Schema cannot make: a person's fields on a
 * person only, a known country, dates that make sense) and any `extra` columns, with
 * `client.updated` by `actor` when a field the API shows changed; answers the row. `client` is the
 * row before, read (locked) in the caller's transaction.
 */
export async function writeProfile(
  ctx: HandlerContext, client: ClientRow, update: ClientFieldValues, extra: ClientUpdate, actor: EventActor,
): Promise<ClientRow> {
  checkFieldsApply(client.type, update);
  await checkClientFields(ctx, update);
  return ctx.scope.transaction(async (scope) => {
    const now = ctx.clock.now();
    const row = await scope.updateTable('clients').set({ ...clientColumns(update), ...extra, updated_at: now })
      .where('id', '=', client.id).returningAll().executeTakeFirstOrThrow();
    await recordClientChange(ctx, scope, actor, 'client.updated', client, row, now);
    return row;
  });
}

/** The client's own profile update: the fields sent, checked as `writeProfile` checks them. */
export async function updateProfile(ctx: HandlerContext, clientId: string, update: ProfileUpdate): Promise<ClientAccount> {
  return ctx.scope.transaction(async (scope) => {
    const client = await lockedClient(scope, clientId);
    return toClientAccount(await writeProfile({ ...ctx, scope }, client, update, {}, { by: 'client', id: clientId }), ctx.clock.now());
  });
}

// Form fields that carry JSON (objects and arrays); every other field is text.
const JSON_FIELDS = new Set(['identificationCard', 'contactPersons']);
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;

/** The form's fields as the JSON form would send them; a profileImage file is stored (its key in `keys`) and named by its document URL. */
async function readProfileForm(ctx: Pick<HandlerContext, 'config' | 'storage' | 'tenant'>, parts: AsyncIterable<Part>, keys: string[]) {
  const fields: Record<string, unknown> = {};
  let image: StoredFile | undefined;
  for await (const part of parts) {
    if (part.kind === 'file') {
      if (part.field !== 'profileImage') throw badRequest(`Unexpected file '${part.field}': the only file is profileImage`, 'UNEXPECTED_FIELD');
      if (image) throw badRequest('Send one profileImage', 'UNEXPECTED_FIELD');
      image = await storeFile(ctx, { filename: part.filename, stream: part.stream }, { label: 'profileImage', keys, allowed: [...IMAGE_TYPES] });
    } else if (JSON_FIELDS.has(part.field)) {
      try { fields[part.field] = JSON.parse(part.value); } catch { throw badRequest(`body.${part.field} must be JSON text`); }
    } else {
      fields[part.field] = part.value === '' ? null : part.value;
    }
  }
  if (image) fields.profileImage = documentUrl(image.id);
  checkAgainstSchema('UpdateAccountRequest', fields);
  return { update: fields as ProfileUpdate, image };
}

/**
 * The profile update as a multipart form: text fields, JSON text for objects and arrays, and at
 * most one `profileImage` file, stored as one of the client's documents. The fields are checked
 * against the same schema as the JSON form; whatever fails, the stored image is removed.
 */
export async function updateProfileFromForm(ctx: HandlerContext, clientId: string, parts: AsyncIterable<Part>): Promise<ClientAccount> {
  const keys: string[] = [];
  try {
    const { update, image } = await readProfileForm(ctx, parts, keys);
    // The image's document row and the profile change commit together, or not at all.
    return await ctx.scope.transaction(async (scope) => {
      const inTransaction = { ...ctx, scope };
      if (image) await recordDocuments(inTransaction, clientId, [image]);
      return updateProfile(inTransaction, clientId, update);
    });
  } catch (error) {
    await discardStored(ctx, keys);
    throw multipartError(error, 1);
  }
}
