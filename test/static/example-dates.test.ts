import { documentForReaders, publishedDocument } from '../../server/platform/openapi.js';
import { resolveRef, type Json } from '../fuzz/spec.js';
import { validatorsFor } from '../fuzz/validators.js';

/**
 * The examples as readers see them today (the served contract and the docs site move their dates
 * from the anchor day to today, server/platform/example-dates.ts), each checked against its
 * schema: request bodies, parameters, responses, and schemas' own examples.
 */

const today = new Date();
const doc: Json = documentForReaders(today);
const validators = validatorsFor(doc);
const pointer = (parts: string[]) => `#/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
/** Keywords whose value is data, not a schema: not walked for examples. */
const DATA = new Set(['examples', 'example', 'enum', 'const', 'default']);

type Case = [label: string, schema: Json, value: unknown, kind: 'body' | 'parameters'];
const cases: Case[] = [];

/** The named and single examples of a media type or a parameter. */
const namedExamples = (node: Json): [string, unknown][] => [
  ...(node?.example !== undefined ? [['example', node.example] as [string, unknown]] : []),
  ...Object.entries<Json>(node?.examples ?? {}).map(([name, example]): [string, unknown] => [name, resolveRef(doc, example).value]),
];

/** A schema's own `examples`/`example`, and those of the schemas inside it, each against the schema it sits in. */
function schemaExamples(node: Json, at: string[], label: string) {
  if (Array.isArray(node)) { node.forEach((item, index) => schemaExamples(item, [...at, String(index)], label)); return; }
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node.examples)) node.examples.forEach((value: unknown, index: number) => cases.push([`${label} schema examples[${index}]`, { $ref: pointer(at) }, value, 'body']));
  if (node.example !== undefined) cases.push([`${label} schema example`, { $ref: pointer(at) }, node.example, 'body']);
  for (const [key, child] of Object.entries(node)) {
    if (!DATA.has(key)) schemaExamples(child, [...at, key], `${label}/${key}`);
  }
}

for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) schemaExamples(schema, ['components', 'schemas', name], name);
// The operations, and the webhooks (what the API sends: each event type's payload and headers).
const operationSections = ['paths', 'webhooks'].flatMap((section) => Object.entries<Json>(doc[section] ?? {}).map(([route, item]) => [section, route, item] as const));
for (const [section, route, item] of operationSections) {
  for (const [method, op] of Object.entries<Json>(item)) {
    if (typeof op?.operationId !== 'string') continue;
    const at = [section, route, method];
    (op.parameters ?? []).forEach((raw: Json, index: number) => {
      const parameter = resolveRef(doc, raw);
      for (const [name, value] of namedExamples(parameter)) cases.push([`${op.operationId} parameter ${parameter.name} ${name}`, parameter.schema, value, 'parameters']);
      if (!raw.$ref) schemaExamples(parameter.schema, [...at, 'parameters', String(index), 'schema'], `${op.operationId} parameter ${parameter.name}`);
    });
    const body = resolveRef(doc, op.requestBody);
    for (const [type, media] of Object.entries<Json>(body?.content ?? {})) {
      if (!type.includes('json')) continue;
      for (const [name, value] of namedExamples(media)) cases.push([`${op.operationId} request ${name}`, media.schema, value, 'body']);
    }
    for (const [status, raw] of Object.entries<Json>(op.responses ?? {})) {
      const media = resolveRef(doc, raw)?.content?.['application/json'];
      for (const [name, value] of namedExamples(media)) cases.push([`${op.operationId} ${status} ${name}`, media.schema, value, 'body']);
    }
  }
}

describe(`examples moved to today (${today.toISOString().slice(0, 10)})`, () => {
  it('finds the examples of the contract, dated ones among them, and moves them', () => {
    expect(cases.length).toBeGreaterThan(500);
    expect(cases.filter(([, , value]) => /\d{4}-\d{2}-\d{2}/.test(JSON.stringify(value))).length).toBeGreaterThan(100);
    if (today.toISOString().slice(0, 10) !== publishedDocument().info['x-examples-anchor-date' as 'version']) {
      expect(JSON.stringify(doc.paths)).not.toBe(JSON.stringify(publishedDocument().paths));
    }
  });

  it.each(cases)('%s matches its schema', (_label, schema, value, kind) => {
    const validate = validators[kind](schema);
    // Parameters arrive as strings and are coerced: checked on a copy, as the server does.
    const valid = validate(kind === 'parameters' ? structuredClone(value) : value);
    expect(valid ? '' : validators.errorsText(validate)).toBe('');
  });
});
