import type { Kysely } from 'kysely';

// Loads the platform-wide reference data; the rows come from data packages and checked-in files.
// The packages are read only when this migration runs: country-state-city alone holds some 60 MB,
// which a server whose schema is already up to date never needs.
export const referenceData = {
  async up(db: Kysely<any>) {
    const {
      countryRows, currencyRows, vehicleBodyTypeRows, vehicleMakeRows, vehicleScheduleTypeRows,
    } = await import('../reference-data.js');
    await db.insertInto('countries').values(countryRows()).execute();
    await db.insertInto('currencies').values(currencyRows()).execute();
    await db.insertInto('vehicle_makes').values(vehicleMakeRows()).execute();
    await db.insertInto('vehicle_body_types').values(vehicleBodyTypeRows()).execute();
    await db.insertInto('vehicle_schedule_types').values(vehicleScheduleTypeRows()).execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['vehicle_schedule_types', 'vehicle_body_types', 'vehicle_makes', 'currencies', 'countries']) {
      await db.deleteFrom(table).execute();
    }
  },
};
