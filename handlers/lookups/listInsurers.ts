import type { components } from '../../generated/api.js';
import type { Handler } from '../types.js';
import { containsPattern } from '../../server/platform/filters.js';
import { insurerColumns, insurerFromRow } from './mappers.js';

type InsurerType = components['schemas']['InsurerType'];

// The company types that underwrite risk; `satisfies` fails tsc if the contract's enum changes.
const insurerTypes = Object.keys({ INSURER: true, MICRO_INSURER: true } satisfies Record<InsurerType, true>) as InsurerType[];

/** Insurers and micro-insurers on the platform (a platform-wide list, not tenant-owned), by name. */
export const listInsurers: Handler<'listInsurers'> = async (ctx, req) => {
  const { type, name, email, country } = req.query;
  const rows = await ctx.db.selectFrom('companies')
    .select(insurerColumns)
    .where('type', 'in', type ? [type] : insurerTypes)
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(email !== undefined, (qb) => qb.where((eb) => eb(eb.fn('lower', ['email']), '=', email!.toLowerCase())))
    .$if(country !== undefined, (qb) => qb.where('country', '=', country!))
    .orderBy('name')
    .orderBy('id')
    .$narrowType<{ type: InsurerType }>()
    .execute();
  return { data: rows.map(insurerFromRow) };
};
