import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  ENVELOPES_DIR, envelopeName, eventWebhookFiles, objectOf, readEventTable, WEBHOOKS_DIR, webhookDocSlug, webhookFile, webhookOperationId,
} from '../../scripts/event-webhooks.js';

// The event catalogue in the contract: the `webhooks` section (one webhook per event type, written
// from spec/events.yaml by scripts/event-webhooks.ts) against the EventType enum, the objects' own
// GETs and the docs. Files only: no database.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readYaml = (file: string) => parse(readFileSync(path.join(root, file), 'utf8'));
const bundle = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));
const table = readEventTable(root);
const eventTypes: string[] = readYaml('spec/components/schemas/events/EventType.yaml').enum;
const objectTypes: string[] = readYaml('spec/components/schemas/events/Event.yaml').properties.object.properties.type.enum;
const webhooks: Record<string, Record<string, any>> = bundle.webhooks ?? {};

const schemaName = (node: any): string | undefined => (typeof node?.$ref === 'string' ? node.$ref.replace('#/components/schemas/', '') : undefined);
const schema = (name: string) => bundle.components.schemas[name];
/** The GET's `data` schema name (its items' for a list). */
function answered(get: string): string | undefined {
  const route = get.replace(/^GET /, '');
  let body = bundle.paths[route]?.get?.responses?.['200'];
  if (body?.$ref) body = bundle.components.responses[body.$ref.split('/').pop()];
  const envelope = schema(schemaName(body?.content?.['application/json']?.schema) ?? '');
  for (const part of envelope?.allOf ?? []) {
    const data = part.properties?.data;
    if (data) return schemaName(data.type === 'array' ? data.items : data);
  }
  return undefined;
}

describe('the webhooks section: one webhook per event type', () => {
  it('has exactly one webhook for each EventType, and no other', () => {
    expect(Object.keys(webhooks)).toEqual(eventTypes);
    for (const [type, item] of Object.entries(webhooks)) {
      expect({ type, methods: Object.keys(item) }).toEqual({ type, methods: ['post'] });
    }
  });

  it('spec/events.yaml describes each EventType, in the enum\'s order, and each object type of Event', () => {
    expect(Object.keys(table.events)).toEqual(eventTypes);
    expect(Object.keys(table.objects)).toEqual(objectTypes);
  });

  it('spec/openapi.yaml lists each webhook with its generated file', () => {
    const listed = Object.entries(readYaml('spec/openapi.yaml').webhooks as Record<string, { $ref: string }>).map(([type, item]) => [type, item.$ref]);
    expect(listed).toEqual(eventTypes.map((type) => [type, webhookFile(type)]));
  });

  it('the generated webhooks and envelopes are what the table makes (else run npm run generate)', () => {
    const expected = eventWebhookFiles(root, table);
    const onDisk = new Map<string, string>([WEBHOOKS_DIR, ENVELOPES_DIR].flatMap((dir) => readdirSync(path.join(root, dir))
      .map((name) => [`${dir}/${name}`, readFileSync(path.join(root, dir, name), 'utf8')] as const)));
    expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [file, text] of expected) expect({ file, text: onDisk.get(file) }).toEqual({ file, text });
  });

  it.each(eventTypes)('%s: its payload is its object\'s envelope, typed with the object\'s own schema', (type) => {
    const post = webhooks[type]?.post;
    expect(post).toBeDefined();
    expect(post.operationId).toBe(webhookOperationId(type));
    expect(post.summary).toBe(type);
    for (const heading of ['**Actor**', '**`data.object`**', '**`data.previous`**']) expect(post.description).toContain(heading);

    // Standard Webhooks' three headers, required; 2xx acknowledges, anything else is retried.
    const headers = post.parameters.map((p: any) => bundle.components.parameters[p.$ref.split('/').pop()]);
    expect(headers.map((h: any) => [h.in, h.name, h.required])).toEqual([
      ['header', 'webhook-id', true], ['header', 'webhook-timestamp', true], ['header', 'webhook-signature', true]]);
    expect(Object.keys(post.responses)).toEqual(['2XX', 'default']);
    expect(post.security).toEqual([]);

    // The body: the envelope of the type's object, with `type` fixed to this one.
    const body = post.requestBody.content['application/json'];
    const [envelopeRef, fixed] = body.schema.allOf;
    const object = objectOf(type);
    expect(schemaName(envelopeRef)).toBe(envelopeName(object));
    expect(fixed.properties.type.const).toBe(type);
    const [event, own] = schema(envelopeName(object)).allOf;
    expect(schemaName(event)).toBe('Event');
    expect(own.properties.object.properties.type.const).toBe(object);
    expect(own.properties.type.enum).toContain(type);
    expect(own.properties.type.enum).toEqual(eventTypes.filter((t) => objectOf(t) === object));
    // data.object is what the object's GET answers, by the same schema.
    const dataObject = schemaName(own.properties.data.properties.object);
    expect(dataObject).toBeDefined();
    expect({ object, get: table.objects[object].get, schema: dataObject }).toEqual({ object, get: table.objects[object].get, schema: answered(table.objects[object].get) });
    // The example is of this type and this object (its schema check is in example-dates.test.ts).
    expect([body.example.type, body.example.object.type, body.example.object.id]).toEqual([type, object, body.example.data.object.id]);
  });

  it('the GETs the table names are the objects\' own (the staff side\'s where there is one)', () => {
    expect(Object.fromEntries(Object.entries(table.objects).map(([object, o]) => [object, answered(o.get)]))).toEqual({
      client: 'StaffClient', policy: 'Policy', invoice: 'Invoice', transaction: 'Transaction', directDebit: 'DirectDebit', claim: 'Claim',
      policyClosure: 'PolicyClosure', product: 'Product', staff: 'Staff', webhookEndpoint: 'WebhookEndpoint',
    });
  });
});

describe('each event type has a docs page', () => {
  const operationSlugs = new Set(Object.values<Record<string, any>>(bundle.paths).flatMap((item) => Object.values(item).map((op) => op?.['x-doc-slug'])));
  const guide = readFileSync(path.join(root, 'docs/docs/webhooks.md'), 'utf8');

  it.each(eventTypes)('%s: /docs/<its x-doc-slug>, linked from the Webhooks guide', (type) => {
    const slug = webhooks[type]?.post?.['x-doc-slug'];
    expect(slug).toBe(webhookDocSlug(type));
    expect(slug).toMatch(/^webhooks\/[a-z-]+\/[a-z-]+$/);
    expect(operationSlugs.has(slug)).toBe(false);
    expect(guide).toContain(`[\`${type}\`](/docs/${slug})`);
  });

  it('gives every event type a page of its own', () => {
    const slugs = eventTypes.map(webhookDocSlug);
    expect(new Set(slugs).size).toBe(eventTypes.length);
  });
});
