import type { Handler } from '../../server/platform/handler-types.js';
import { policyTypesOnSale } from '../../server/domain/policies/types-catalogue.js';

/** Every policy type, with its asset schema, its create call and how many products the client can buy. */
export const listPolicyTypes: Handler<'listPolicyTypes'> = async (ctx) => ({ data: await policyTypesOnSale(ctx) });
