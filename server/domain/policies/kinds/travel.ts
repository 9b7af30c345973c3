import { badRequest } from '../../../platform/errors.js';
import { fieldAt, inThePast, withinTerm, type AssetRule } from './asset-rules.js';
import { defineKind } from './kind.js';

/**
 * A traveller born in the past, their trip within the policy's cover, and a passport that lasts
 * the trip and expires after it was issued.
 */
const checkTraveller: AssetRule = (asset, at) => {
  inThePast(asset, at, ['dateOfBirth']);
  withinTerm(asset, at);
  const passport = asset.passport as { expiryDate?: string; issueDate?: string } | undefined;
  const tripEnd = asset.endDate as string;
  if (passport?.expiryDate && passport.expiryDate < tripEnd) {
    throw badRequest(`${fieldAt(at, 'passport.expiryDate')} must not be before the trip ends (${tripEnd})`);
  }
  if (passport?.issueDate && passport.expiryDate && passport.expiryDate < passport.issueDate) {
    throw badRequest(`${fieldAt(at, 'passport.expiryDate')} must not be before ${fieldAt(at, 'passport.issueDate')}`);
  }
};

/** TRAVEL: a traveller and their trip an asset (TravelAsset), rated on the sum insured. */
export const travel = defineKind({ policyType: 'TRAVEL', name: 'Travel', checkAsset: checkTraveller });
