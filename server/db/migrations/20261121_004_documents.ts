import type { Kysely } from 'kysely';

export const documents = {
  async up(_db: Kysely<any>) {},
  async down(_db: Kysely<any>) {},
};
