import { createCompany } from '../server/domain/companies/create.js';
import { storeCompanyLogo } from '../server/domain/companies/logo.js';
import type { CompanyCreate } from '../server/domain/companies/rules.js';
import { checkAgainstSchema } from '../server/platform/validation.js';
import { FIELD_HELP, FIELD_OPTIONS, fieldsOf, logoPart, parse, run, withServices } from './company-cli.js';

/**
 * `npm run company:create -- --name ... --manager-email ...`: what `POST /operator/companies` does,
 * from a shell on the server: the company, its EXECUTIVE_MANAGER and its first Api-Key in one
 * transaction (then the logo, if given), printed with the key in clear, this once.
 */

const options = {
  ...FIELD_OPTIONS,
  'manager-first-name': { type: 'string' }, 'manager-last-name': { type: 'string' }, 'manager-email': { type: 'string' },
  'manager-phone': { type: 'string' }, 'manager-password': { type: 'string' },
} as const;

const HELP = `Creates a company with its executive manager and first Api-Key.

npm run company:create -- --name <name> --identifier <id> --email <email> --type <type> --kind <kind> \\
  --short-name <short> --manager-first-name <first> --manager-last-name <last> --manager-email <email> [options]

Required: --name --identifier --email --type --kind --short-name and the manager's first name, last name and email.
Executive manager:
  --manager-first-name <text>   --manager-last-name <text>   --manager-email <email>
  --manager-phone <number>      10 to 15 characters
  --manager-password <text>     8 to 128 characters; without it the manager is emailed a code to set one
                                (POST /staff/auth/password/reset)
${FIELD_HELP}`;

await run(async () => {
  const values = parse(options);
  if (values.help) { console.log(HELP); return; }
  const manager = JSON.parse(JSON.stringify({
    firstName: values['manager-first-name'], lastName: values['manager-last-name'], email: values['manager-email'],
    phoneNumber: values['manager-phone'], password: values['manager-password'],
  }));
  const body = { ...fieldsOf(values), executiveManager: manager } as CompanyCreate;
  checkAgainstSchema('CompanyCreate', body, 'company');

  const created = await withServices(async (services) => {
    const answer = await createCompany(services, body);
    if (values.logo) answer.company = await storeCompanyLogo(services, answer.company.id, logoPart(values.logo));
    return answer;
  });
  if (values.json) { console.log(JSON.stringify(created, null, 2)); return; }
  const { company, executiveManager, apiKey, passwordSetCodeSent } = created;
  console.log(`Company created: ${company.name} (${company.type}, ${company.kind})
  id          ${company.id}
  identifier  ${company.identifier}
  subdomain   ${company.subdomain}
  dbName      ${company.dbName ?? '-'}
  logo        ${company.logo ?? '-'}
  firebase    ${company.firebaseConfig?.projectId ?? '-'}

Executive manager: ${executiveManager.fullName} <${executiveManager.email}>
  id          ${executiveManager.id}
  password    ${passwordSetCodeSent ? 'a code to set it was emailed (POST /staff/auth/password/reset)' : 'as given'}

Api-Key (shown only this once; keep it safe):
  ${apiKey.key}`);
});
