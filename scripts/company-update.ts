import { createCompanyApiKey, revokeCompanyApiKey } from '../server/domain/companies/api-keys.js';
import { operatorCompany } from '../server/domain/companies/list.js';
import { storeCompanyLogo } from '../server/domain/companies/logo.js';
import type { CompanyUpdate } from '../server/domain/companies/rules.js';
import { updateCompany } from '../server/domain/companies/update.js';
import { badRequest } from '../server/platform/errors.js';
import { checkAgainstSchema } from '../server/platform/validation.js';
import { FIELD_HELP, FIELD_OPTIONS, fieldsOf, logoPart, parse, run, withServices } from './company-cli.js';

/**
 * `npm run company:update -- --id <companyId> [fields]`: what `PATCH /operator/companies/{id}`
 * (and the logo upload and Api-Key calls) do, from a shell on the server.
 */

const options = {
  ...FIELD_OPTIONS,
  id: { type: 'string' },
  clear: { type: 'string', multiple: true },
  'new-api-key': { type: 'string' },
  'revoke-api-key': { type: 'string', multiple: true },
} as const;

const NULLABLE: Record<string, keyof CompanyUpdate> = {
  description: 'description', 'primary-color': 'primaryColor', 'sms-sender-id': 'smsSenderId', 'db-name': 'dbName',
  'database-uri': 'databaseUri', address: 'address', country: 'country', firebase: 'firebaseConfig',
};

const HELP = `Changes a company: only the options given change.

npm run company:update -- --id <companyId> [--name <name>] [--clear description] [--logo logo.png] [--new-api-key <name>] ...

  --id <uuid>                   the company (required)
  --clear <field>               clear a field: ${Object.keys(NULLABLE).join(', ')} (repeatable)
  --new-api-key <name>          also give the company a new Api-Key, printed in clear this once
  --revoke-api-key <id>         revoke one of its Api-Keys (repeatable)
${FIELD_HELP}`;

await run(async () => {
  const values = parse(options);
  if (values.help) { console.log(HELP); return; }
  if (!values.id) throw badRequest('--id is required (the company\'s id)');
  const body: Record<string, unknown> = { ...fieldsOf(values) };
  for (const field of values.clear ?? []) {
    if (!NULLABLE[field]) throw badRequest(`--clear ${field}: only ${Object.keys(NULLABLE).join(', ')} can be cleared`);
    body[NULLABLE[field]] = null;
  }
  if (Object.keys(body).length > 0) checkAgainstSchema('CompanyUpdate', body, 'company');
  checkAgainstSchema('CompanyApiKeyInput', values['new-api-key'] ? { name: values['new-api-key'] } : {}, 'apiKey');

  const answer = await withServices(async (services) => {
    const id = values.id!;
    let company = Object.keys(body).length > 0 ? await updateCompany(services, id, body as CompanyUpdate) : await operatorCompany(services.db, id);
    if (values.logo) company = await storeCompanyLogo(services, id, logoPart(values.logo));
    const apiKey = values['new-api-key'] ? await createCompanyApiKey(services, id, values['new-api-key']) : undefined;
    for (const keyId of values['revoke-api-key'] ?? []) await revokeCompanyApiKey(services, id, keyId);
    return { company, ...(apiKey && { apiKey }), revokedApiKeys: values['revoke-api-key'] ?? [] };
  });
  if (values.json) { console.log(JSON.stringify(answer, null, 2)); return; }
  console.log(`Company updated: ${answer.company.name} (${answer.company.id})
${JSON.stringify(answer.company, null, 2)}`);
  if (answer.apiKey) console.log(`\nNew Api-Key "${answer.apiKey.name}" (shown only this once; keep it safe):\n  ${answer.apiKey.key}`);
  for (const id of answer.revokedApiKeys) console.log(`Revoked Api-Key ${id}`);
});
