import { aliasOf } from '../../server/platform/handler-types.js';
import { getCompanyLogo } from './getCompanyLogo.js';
import { listCompanies } from './listCompanies.js';
import { listCountries } from './listCountries.js';
import { listCurrencies } from './listCurrencies.js';
import { listInsurers } from './listInsurers.js';
import { listVehicleBodyTypes } from './listVehicleBodyTypes.js';
import { listVehicles } from './listVehicles.js';
import { listVehicleScheduleTypes } from './listVehicleScheduleTypes.js';

// The deprecated doubled paths (/client/api/v1/...) are served by their canonical handlers.
export const lookupHandlers = {
  listInsurers,
  listCountries,
  listCurrencies,
  listCompanies,
  getCompanyLogo,
  listCompaniesLegacy: aliasOf<'listCompaniesLegacy'>()(listCompanies),
  listVehicles,
  listVehiclesLegacy: aliasOf<'listVehiclesLegacy'>()(listVehicles),
  listVehicleBodyTypes,
  listVehicleBodyTypesLegacy: aliasOf<'listVehicleBodyTypesLegacy'>()(listVehicleBodyTypes),
  listVehicleScheduleTypes,
  listVehicleScheduleTypesLegacy: aliasOf<'listVehicleScheduleTypesLegacy'>()(listVehicleScheduleTypes),
};
