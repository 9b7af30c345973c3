import { readFileSync } from 'node:fs';
import { findBreakingChanges, type BreakingReport, type Change } from '../../scripts/breaking.js';
import type { Obj } from '../../scripts/openapi30.js';

/**
 * `npm run contract:breaking` on planted changes: modified copies of the current bundle, compared
 * with the bundle as it is (the role spec/baseline/openapi.json plays in CI).
 */
const bundle = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as Obj;

/** The planted edits reach into the document freely. */
type Doc = any;
async function changed(edit: (doc: Doc) => void): Promise<BreakingReport> {
  const copy = structuredClone(bundle);
  edit(copy);
  return findBreakingChanges(bundle, copy);
}
const summary = (changes: Change[]) => changes.map((c) => `${c.code} | ${c.where} | ${c.message}`);

/** Each comparison converts two whole documents and diffs what differs: well under a second, more on a busy machine. */
const SLOW = 60_000;

describe('breaking changes against the published contract', () => {
  it('finds none between the bundle and itself', async () => {
    const report = await findBreakingChanges(bundle, structuredClone(bundle));
    expect(report).toEqual({ breaking: [], nonBreaking: [], unclassified: [] });
  }, SLOW);

  it('removing an operation is breaking', async () => {
    const report = await changed((doc) => { delete doc.paths['/client/vehicles'].get; });
    expect(summary(report.breaking)).toEqual([expect.stringMatching(/^method\.remove \| GET \/client\/vehicles \|/)]);
  }, SLOW);

  it('removing a response property is breaking', async () => {
    const report = await changed((doc) => {
      const company = doc.components.schemas.Company;
      delete company.properties.name;
      company.required = company.required.filter((name: string) => name !== 'name');
    });
    const lines = summary(report.breaking);
    expect(lines).toContain('response.property.remove | GET /client/companies response 200: data[].name | property removed: clients reading it get nothing');
    expect(lines).toContainEqual(expect.stringMatching(/^response\.body\.scope\.add \| GET \/client\/companies response 200 \|.*data\[\]\.name: removed/));
  }, SLOW);

  it('removing an optional property from a closed response object is breaking too', async () => {
    // IdentificationCard says additionalProperties: false; the rule names the property whatever the schema says.
    const report = await changed((doc) => { delete doc.components.schemas.IdentificationCard.properties.expiryDate; });
    expect(summary(report.breaking)).toContain('response.property.remove | POST /auth/login response 200: data.identificationCard.expiryDate | property removed: clients reading it get nothing');
  }, SLOW);

  it('adding a required request property is breaking', async () => {
    const report = await changed((doc) => {
      const change = doc.components.schemas.PasswordChange;
      change.properties.otp = { type: 'string', minLength: 6, maxLength: 6 };
      change.required.push('otp');
    });
    expect(summary(report.breaking)).toEqual(['request.body.scope.remove | PATCH /auth/password request body | refuses values it accepted (changed: otp: now required; otp: added)']);
  }, SLOW);

  it('adding a required property to one variant of a request union is breaking, for that variant', async () => {
    const report = await changed((doc) => { doc.components.schemas.CorporateSignUp.required.push('dateOfIncorporation'); });
    expect(summary(report.breaking)).toEqual([expect.stringMatching(/^request\.body\.scope\.remove \| POST \/auth\/signup request body \[type=CORPORATE\] \|.*dateOfIncorporation: now required/)]);
  }, SLOW);

  it('narrowing an enum in a request (removing a value) is breaking', async () => {
    const report = await changed((doc) => {
      const type = doc.components.schemas.IdentificationCard.properties.type;
      type.enum = type.enum.filter((value: string) => value !== 'PASSPORT');
    });
    // Every request that takes an identification card now refuses what it took.
    expect(summary(report.breaking)).toEqual([
      'request.enum.remove | POST /staff/clients request body: [type=INDIVIDUAL].identificationCard.type | no longer accepts "PASSPORT"',
      'request.enum.remove | PATCH /staff/clients/{id} request body: identificationCard.type | no longer accepts "PASSPORT"',
      'request.enum.remove | POST /auth/signup request body: [type=INDIVIDUAL].identificationCard.type | no longer accepts "PASSPORT"',
      'request.enum.remove | PATCH /client/account request body: identificationCard.type | no longer accepts "PASSPORT"',
    ]);
    // The same enum in answers now says less: fine for clients.
    expect(new Set(report.nonBreaking.map((c) => c.code))).toEqual(new Set(['response.enum.remove']));
  }, SLOW);

  it('narrowing an enum in a query parameter is breaking', async () => {
    const report = await changed((doc) => {
      doc.components.parameters.CompanyTypeQuery.schema = { type: 'string', enum: ['INSURER', 'BROKER'] };
    });
    expect(summary(report.breaking)).toContainEqual(expect.stringMatching(/^request\.enum\.remove \| GET \/client\/companies query parameter type \| no longer accepts /));
  }, SLOW);

  it("changing a property's type is breaking, in a response and in a request", async () => {
    const response = await changed((doc) => { doc.components.schemas.Country.properties.name = { type: 'integer' }; });
    expect(summary(response.breaking)).toEqual(['response.body.scope.add | GET /countries response 200 | may answer values existing clients do not expect (changed: data[].name: type "string" -> "integer"; data[].name: maxLength 100 -> none)']);
    const request = await changed((doc) => { doc.components.schemas.PasswordLogin.properties.username = { type: 'integer' }; });
    expect(summary(request.breaking)).toEqual([expect.stringMatching(/^request\.body\.scope\.remove \| POST \/auth\/login request body \[PasswordLogin\] \| .*username: type "string" -> "integer"/)]);
  }, SLOW);

  it('adding an optional request property is not breaking', async () => {
    const report = await changed((doc) => { doc.components.schemas.PasswordChange.properties.hint = { type: 'string', maxLength: 100 }; });
    expect(report.breaking).toEqual([]);
    expect(summary(report.nonBreaking)).toEqual(['request.body.scope.add | PATCH /auth/password request body | accepts more values (changed: hint: added)']);
  }, SLOW);

  it('adding an optional property to a request union variant (closed by unevaluatedProperties) is not breaking', async () => {
    const report = await changed((doc) => { doc.components.schemas.IndividualSignUp.properties.nickname = { type: 'string', maxLength: 40 }; });
    expect(report.breaking).toEqual([]);
    expect(report.nonBreaking.map((c) => c.code)).toEqual(['request.body.scope.add']);
  }, SLOW);

  it('adding a property to a response object is not breaking, even to a closed one', async () => {
    const report = await changed((doc) => {
      doc.components.schemas.IdentificationCard.properties.issuer = { type: 'string', maxLength: 80 }; // additionalProperties: false
      doc.components.schemas.Country.properties.iso3 = { type: 'string' };
    });
    expect(report.breaking).toEqual([]);
    expect(summary(report.nonBreaking)).toContain('response.body.scope.remove | POST /auth/login response 200 | answers fewer kinds of values (changed: data.identificationCard.issuer: added)');
  }, SLOW);

  it('making a response property required is not breaking, and is said without openapi-diff', async () => {
    const report = await changed((doc) => { doc.components.schemas.ErrorResponse.required.push('code'); });
    expect(report.breaking).toEqual([]);
    expect(report.unclassified).toEqual([]);
    expect(report.nonBreaking.length).toBeGreaterThan(50); // every operation answers errors
    expect(new Set(report.nonBreaking.map((c) => `${c.code} ${c.source}`))).toEqual(new Set(['response.body.scope.remove rules']));
    expect(summary(report.nonBreaking)).toContain('response.body.scope.remove | POST /auth/login response 401 | answers fewer kinds of values (changed: code: now required)');
  }, SLOW);

  it('bounding a request string is breaking, and bounding an answer\'s is not, both said without openapi-diff', async () => {
    const report = await changed((doc) => {
      doc.components.schemas.PasswordChange.properties.newPassword.maxLength = 40;
      doc.components.schemas.ErrorResponse.properties.message.maxLength = 1000;
    });
    expect(summary(report.breaking)).toEqual(['request.body.scope.remove | PATCH /auth/password request body | refuses values it accepted (changed: newPassword: maxLength 50 -> 40)']);
    expect(report.unclassified).toEqual([]);
    expect(new Set([...report.breaking, ...report.nonBreaking].map((c) => c.source))).toEqual(new Set(['rules']));
    expect(summary(report.nonBreaking)).toContain('response.body.scope.remove | POST /auth/login response 401 | answers fewer kinds of values (changed: message: maxLength 2000 -> 1000)');
  }, SLOW);

  it('renaming a schema, every reference with it, changes nothing a client sees', async () => {
    const report = await changed((doc) => {
      doc.components.schemas.Problem = doc.components.schemas.ErrorResponse;
      delete doc.components.schemas.ErrorResponse;
      const text = JSON.stringify(doc).replaceAll('"#/components/schemas/ErrorResponse"', '"#/components/schemas/Problem"');
      Object.assign(doc, JSON.parse(text));
    });
    expect(report).toEqual({ breaking: [], nonBreaking: [], unclassified: [] });
  }, SLOW);

  it('adding an operation is not breaking', async () => {
    const report = await changed((doc) => {
      const list = doc.paths['/client/vehicles'].get;
      doc.paths['/client/vehicles/{make}'] = {
        get: { ...list, operationId: 'getVehicleMake', parameters: [{ name: 'make', in: 'path', required: true, schema: { type: 'string' } }] },
      };
    });
    expect(report.breaking).toEqual([]);
    expect(summary(report.nonBreaking)).toEqual(['path.add | path /client/vehicles/{make} | path added']);
  }, SLOW);
});

describe('breaking changes in the webhooks (what the API sends: event payloads)', () => {
  it('removing an event type\'s webhook is breaking', async () => {
    const report = await changed((doc) => { delete doc.webhooks['invoice.paid']; });
    expect(summary(report.breaking)).toEqual(['webhook.remove | webhook invoice.paid | event type removed: endpoints subscribed to it no longer receive it']);
  }, SLOW);

  it('removing a field from an event payload is breaking, in every event that carries it', async () => {
    const report = await changed((doc) => {
      const [fields] = doc.components.schemas.Invoice.allOf;
      delete fields.properties.invoiceNo;
      fields.required = fields.required.filter((name: string) => name !== 'invoiceNo');
    });
    const lines = summary(report.breaking);
    for (const type of ['invoice.created', 'invoice.paid', 'invoice.closed']) {
      expect(lines).toContain(`response.property.remove | webhook ${type} payload: data.object.invoiceNo | property removed: clients reading it get nothing`);
    }
    // The same field in answers (GET /staff/invoices/{id}) is reported as before.
    expect(lines).toContain('response.property.remove | GET /staff/invoices/{id} response 200: data.invoiceNo | property removed: clients reading it get nothing');
    // A field of the envelope itself, in every webhook.
    const envelope = await changed((doc) => { delete doc.components.schemas.Event.properties.apiVersion; });
    expect(summary(envelope.breaking)).toContain('response.property.remove | webhook webhookEndpoint.ping payload: apiVersion | property removed: clients reading it get nothing');
  }, SLOW);

  it('removing a delivery header is breaking', async () => {
    const report = await changed((doc) => {
      const post = doc.webhooks['claim.filed'].post;
      post.parameters = post.parameters.filter((p: { $ref: string }) => !p.$ref.endsWith('/WebhookSignatureHeader'));
    });
    expect(summary(report.breaking)).toEqual([expect.stringMatching(/^response\.required\.header\.remove \| webhook claim\.filed payload header webhook-signature \|/)]);
  }, SLOW);

  it('adding an event type, or a field to an event payload, is not breaking', async () => {
    const report = await changed((doc) => {
      doc.components.schemas.EventType.enum.push('invoice.refunded');
      doc.components.schemas.InvoiceEvent.allOf[1].properties.type.enum.push('invoice.refunded');
      const refunded = structuredClone(doc.webhooks['invoice.paid']);
      refunded.post.operationId = 'invoiceRefundedEvent';
      refunded.post.requestBody.content['application/json'].schema.allOf[1].properties.type.const = 'invoice.refunded';
      doc.webhooks['invoice.refunded'] = refunded;
      doc.components.schemas.Invoice.allOf[0].properties.refundedAt = { type: ['string', 'null'], format: 'date-time', maxLength: 35 };
    });
    expect(report.breaking).toEqual([]);
    const lines = summary(report.nonBreaking);
    expect(lines).toContain('webhook.add | webhook invoice.refunded | event type added');
    // The event types in answers (GET /staff/events, a webhook endpoint's eventTypes) may grow.
    expect(lines).toContainEqual(expect.stringMatching(/^response\.enum\.add \| GET \/staff\/events response 200: data\[\]\.type \| may now answer "invoice\.refunded" \(an extensible list/));
  }, SLOW);

  it('a contract without webhooks gains them all without a breaking change', async () => {
    const before = structuredClone(bundle) as Doc;
    delete before.webhooks;
    const report = await findBreakingChanges(before, bundle);
    expect(report.breaking).toEqual([]);
    expect(report.nonBreaking.map((c) => c.where)).toEqual(Object.keys((bundle as Doc).webhooks).map((type) => `webhook ${type}`));
    expect(new Set(report.nonBreaking.map((c) => c.code))).toEqual(new Set(['webhook.add']));
  }, SLOW);

  it('an enum not marked extensible still may not grow in an answer', async () => {
    const report = await changed((doc) => { doc.components.schemas.InvoiceStatus.enum.push('REFUNDED'); });
    expect(report.breaking.map((c) => c.code)).toContain('response.enum.add');
    expect(summary(report.breaking)).toContainEqual(expect.stringMatching(/^response\.enum\.add \| webhook invoice\.paid payload: data\.object\.status \|/));
  }, SLOW);
});

describe('widened request formats', () => {
  it('does not call uri -> uri-reference on a request property breaking, but the reverse it does', async () => {
    const { findBreakingChanges } = await import('../../scripts/breaking.js');
    const { readFileSync } = await import('node:fs');
    const doc = JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
    const narrow = structuredClone(doc);
    narrow.components.schemas.ClientFields.properties.profileImage.format = 'uri';
    const widening = await findBreakingChanges(narrow, doc);
    expect(widening.breaking.filter((c: { message: string }) => /profileImage/.test(JSON.stringify(c)))).toEqual([]);
    const narrowing = await findBreakingChanges(doc, narrow);
    expect(narrowing.breaking.map((c: { code: string }) => c.code)).toContain('request.format');
  });
});
