import { addYears, format, parseISO } from 'date-fns';
import { badRequest } from '../../platform/errors.js';
import type { Today } from '../../platform/clock.js';
import { DEFAULT_TPPD, ncdEarned, type Usage } from '../rating/motor.js';

/**
 * The policy rules JSON Schema cannot say (they depend on today, or compare two fields), in one
 * place, with the same 400 shape as schema validation: `body.<path> <what is wrong>`.
 */

export type Asset = Record<string, unknown>;
const MAX_TERM_YEARS = 5;

/** `body.assets[2].yearOfMake` */
const at = (index: number, field: string, root = 'body') => `${root}.assets[${index}].${field}`;


/** Cover dates: not in the past for a client, end on or after start, at most five years. */
export function checkTerm(startDate: string, endDate: string, today: Today, root = 'body') {
  if (startDate < today.date) throw badRequest(`${root}.startDate must not be in the past (today is ${today.date})`);
  if (endDate < startDate) throw badRequest(`${root}.endDate must be on or after ${root}.startDate`);
  const limit = format(addYears(parseISO(startDate), MAX_TERM_YEARS), 'yyyy-MM-dd');
  if (endDate > limit) throw badRequest(`${root}.endDate must be at most ${MAX_TERM_YEARS} years after ${root}.startDate (${limit})`);
}

const isNumber = (value: unknown): value is number => typeof value === 'number';
const isDate = (value: unknown): value is string => typeof value === 'string';

function notAfterYear(asset: Asset, index: number, fields: string[], today: Today, root: string) {
  for (const field of fields) {
    const year = asset[field];
    if (isNumber(year) && year > today.year) throw badRequest(`${at(index, field, root)} must not be later than ${today.year}`);
  }
}
function inThePast(asset: Asset, index: number, fields: string[], today: Today, root: string, inclusive = false) {
  for (const field of fields) {
    const value = asset[field];
    if (isDate(value) && (inclusive ? value > today.date : value >= today.date)) {
      throw badRequest(`${at(index, field, root)} must be ${inclusive ? 'today or earlier' : 'in the past'}`);
    }
  }
}
function inOrder(asset: Asset, index: number, earlier: string, later: string, root: string) {
  const a = asset[earlier];
  const b = asset[later];
  if ((isDate(a) && isDate(b)) || (isNumber(a) && isNumber(b))) {
    if (b < a) throw badRequest(`${at(index, later, root)} must not be before ${at(index, earlier, root)}`);
  }
}

/**
 * Each asset's cross-field and calendar rules, by policy type, and the defaults the contract
 * names (ajv leaves defaults inside `oneOf` unapplied, so they are filled here for every path).
 * Returns the assets as they will be stored.
 */
export function checkAssets(policyType: string, assets: Asset[], term: { startDate: string; endDate: string }, today: Today, root = 'body'): Asset[] {
  return assets.map((original, index) => {
    const asset: Asset = { ...original };
    delete asset.premium; // the server's price is stored beside the asset, not inside it
    switch (policyType) {
      case 'AUTO': {
        notAfterYear(asset, index, ['yearOfMake', 'yearOfPurchase', 'yearOfRegistration'], today, root);
        inOrder(asset, index, 'yearOfMake', 'yearOfPurchase', root);
        inOrder(asset, index, 'yearOfMake', 'yearOfRegistration', root);
        const usage = asset.usage as Usage;
        if (isNumber(asset.noClaimDiscountRate) && isNumber(asset.noClaimDiscountYears)) {
          const earned = ncdEarned(usage, asset.noClaimDiscountYears);
          if (asset.noClaimDiscountRate > earned) {
            throw badRequest(`${at(index, 'noClaimDiscountRate', root)} must not exceed ${earned}, what ${asset.noClaimDiscountYears} claim-free year(s) earn for ${usage} usage`);
          }
        }
        asset.applyExcess ??= true;
        asset.thirdPartyPropertyDamage ??= DEFAULT_TPPD;
        withinTerm(asset, index, term, root);
        break;
      }
      case 'TRAVEL': {
        inThePast(asset, index, ['dateOfBirth'], today, root);
        withinTerm(asset, index, term, root);
        const passport = asset.passport as { expiryDate?: string; issueDate?: string } | undefined;
        const tripEnd = asset.endDate as string;
        if (passport?.expiryDate && passport.expiryDate < tripEnd) {
          throw badRequest(`${at(index, 'passport.expiryDate', root)} must not be before the trip ends (${tripEnd})`);
        }
        if (passport?.issueDate && passport.expiryDate && passport.expiryDate < passport.issueDate) {
          throw badRequest(`${at(index, 'passport.expiryDate', root)} must not be before ${at(index, 'passport.issueDate', root)}`);
        }
        break;
      }
      case 'DIRECTORS_OFFICERS_LIABILITY':
        inThePast(asset, index, ['dateAppointed'], today, root, true);
        notAfterYear(asset, index, ['yearOfQualification'], today, root);
        break;
      case 'PLANT_AND_MACHINERY':
        notAfterYear(asset, index, ['yearOfManufacture'], today, root);
        break;
      case 'ERECTION_ALL_RISKS':
        inOrder(asset, index, 'constructionStartDate', 'constructionEndDate', root);
        inOrder(asset, index, 'testingStartDate', 'testingEndDate', root);
        inOrder(asset, index, 'constructionStartDate', 'testingStartDate', root);
        break;
      default:
        inThePast(asset, index, ['dateOfBirth'], today, root);
    }
    return asset;
  });
}

/** An asset's own cover dates default to the policy's and must lie within them. */
function withinTerm(asset: Asset, index: number, term: { startDate: string; endDate: string }, root: string) {
  asset.startDate ??= term.startDate;
  asset.endDate ??= term.endDate;
  const start = asset.startDate as string;
  const end = asset.endDate as string;
  if (start < term.startDate || start > term.endDate) throw badRequest(`${at(index, 'startDate', root)} must be within the policy's cover (${term.startDate} to ${term.endDate})`);
  if (end < start || end > term.endDate) throw badRequest(`${at(index, 'endDate', root)} must be on or after its startDate and not after the policy's endDate (${term.endDate})`);
}
