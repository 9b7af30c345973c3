import { addYears, format, parseISO } from 'date-fns';
import { badRequest } from '../../platform/errors.js';
import type { Today } from '../../platform/clock.js';

/**
 * The policy rules JSON Schema cannot say (they depend on today, or compare two fields), with the
 * same 400 shape as schema validation: `body.<path> <what is wrong>`. Each kind's asset rules are
 * its module's (kinds/, checked through `checkAssets` in kinds/index.ts).
 */

export type { Asset } from './kinds/asset-rules.js';
const MAX_TERM_YEARS = 5;

/** Cover dates: not in the past for a client, end on or after start, at most five years. */
export function checkTerm(startDate: string, endDate: string, today: Today, root = 'body') {
  if (startDate < today.date) throw badRequest(`${root}.startDate must not be in the past (today is ${today.date})`);
  if (endDate < startDate) throw badRequest(`${root}.endDate must be on or after ${root}.startDate`);
  const limit = format(addYears(parseISO(startDate), MAX_TERM_YEARS), 'yyyy-MM-dd');
  if (endDate > limit) throw badRequest(`${root}.endDate must be at most ${MAX_TERM_YEARS} years after ${root}.startDate (${limit})`);
}
