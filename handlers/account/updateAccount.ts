import { badRequest } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import type { Handler } from '../../server/platform/handler-types.js';
import { updateProfile, updateProfileFromForm } from '../../server/domain/clients/profile.js';

/** Changes the profile fields sent, as JSON or as a multipart form with a profile image. */
export const updateAccount: Handler<'updateAccount'> = async (ctx, req) => {
  const id = clientId(ctx);
  if (req.parts) return { data: await updateProfileFromForm(ctx, id, req.parts) };
  if (!req.body) throw badRequest('body is required (JSON, or multipart/form-data with a profileImage)');
  return { data: await updateProfile(ctx, id, req.body) };
};
