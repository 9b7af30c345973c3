import type { Kysely } from 'kysely';

export const clientAccount = {
  async up(_db: Kysely<any>) {},
  async down(_db: Kysely<any>) {},
};
