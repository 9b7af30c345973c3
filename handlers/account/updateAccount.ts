import { badRequest } from '../../server/platform/errors.js';
import type { ClientUpdate } from '../../server/platform/db/schema.js';
import type { HandlerContext } from '../../server/platform/context.js';
import type { Part } from '../../server/platform/files.js';
import { checkAgainstSchema } from '../../server/platform/validation.js';
import { documentUrl } from '../../server/domain/documents/view.js';
import { discardStored, multipartError, recordDocuments, storeFile, type StoredFile } from '../../server/domain/documents/store.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler, HandlerRequest } from '../types.js';
import { toClientAccount } from '../../server/domain/clients/account.js';
import { checkClientFields } from '../../server/domain/clients/rules.js';

type AccountUpdate = NonNullable<HandlerRequest<'updateAccount'>['body']>;

const INDIVIDUAL_ONLY = ['firstName', 'lastName', 'otherNames', 'title', 'gender', 'dateOfBirth', 'identificationCard'] as const;
const CORPORATE_ONLY = ['companyName', 'dateOfIncorporation', 'contactPersons'] as const;

/** The update as column values; JSON columns are written as JSON text. */
function columns(update: AccountUpdate): ClientUpdate {
  const json = (value: unknown) => JSON.stringify(value ?? null);
  const map: Record<keyof AccountUpdate, (value: any) => ClientUpdate> = {
    country: (v) => ({ country: v }),
    city: (v) => ({ city: v }),
    region: (v) => ({ region: v }),
    digitalAddress: (v) => ({ digital_address: v }),
    address: (v) => ({ address: v }),
    industry: (v) => ({ industry: v }),
    notes: (v) => ({ notes: v }),
    taxpayerIdentificationNumber: (v) => ({ taxpayer_identification_number: v }),
    profileImage: (v) => ({ profile_image: v }),
    firstName: (v) => ({ first_name: v }),
    lastName: (v) => ({ last_name: v }),
    otherNames: (v) => ({ other_names: v }),
    title: (v) => ({ title: v }),
    gender: (v) => ({ gender: v }),
    dateOfBirth: (v) => ({ date_of_birth: v }),
    identificationCard: (v) => ({ identification_card: json(v) }),
    companyName: (v) => ({ company_name: v }),
    dateOfIncorporation: (v) => ({ date_of_incorporation: v }),
    contactPersons: (v) => ({ contact_persons: json(v) }),
  };
  return Object.assign({}, ...Object.entries(update).map(([key, value]) => map[key as keyof AccountUpdate](value)));
}

/** Applies a profile update after the checks JSON Schema cannot make. */
async function applyAccountUpdate(ctx: HandlerContext, update: AccountUpdate) {
  const id = clientId(ctx);
  const client = await ctx.scope.selectFrom('clients').select('type').where('id', '=', id).executeTakeFirstOrThrow();
  const foreign = client.type === 'INDIVIDUAL' ? CORPORATE_ONLY : INDIVIDUAL_ONLY;
  const misplaced = foreign.find((field) => field in update);
  if (misplaced) {
    throw badRequest(`body.${misplaced} applies to ${client.type === 'INDIVIDUAL' ? 'CORPORATE' : 'INDIVIDUAL'} clients only`);
  }
  await checkClientFields(ctx, update);
  const now = ctx.clock.now();
  const row = await ctx.scope.updateTable('clients').set({ ...columns(update), updated_at: now })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return { data: toClientAccount(row, now) };
}

// Form fields that carry JSON (objects and arrays); every other field is text.
const JSON_FIELDS = new Set(['identificationCard', 'contactPersons']);
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;

/**
 * The multipart form: text fields, JSON text for objects and arrays, and at most one
 * `profileImage` file, which is stored as one of the client's documents. The fields are checked
 * against the same schema as the JSON form.
 */
async function updateFromForm(ctx: HandlerContext, parts: AsyncIterable<Part>) {
  const fields: Record<string, unknown> = {};
  const keys: string[] = [];
  let image: StoredFile | undefined;
  try {
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
    const stored = image;
    // The image's document row and the profile change commit together, or not at all.
    return await ctx.scope.transaction(async (scope) => {
      const inTransaction = { ...ctx, scope };
      if (stored) await recordDocuments(inTransaction, clientId(ctx), [stored]);
      return applyAccountUpdate(inTransaction, fields as AccountUpdate);
    });
  } catch (error) {
    await discardStored(ctx, keys);
    throw multipartError(error, 1);
  }
}

/** Changes the profile fields sent, as JSON or as a multipart form with a profile image. */
export const updateAccount: Handler<'updateAccount'> = async (ctx, req) => {
  if (req.parts) return updateFromForm(ctx, req.parts);
  if (!req.body) throw badRequest('body is required (JSON, or multipart/form-data with a profileImage)');
  return applyAccountUpdate(ctx, req.body);
};
