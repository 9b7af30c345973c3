import { publishedDocument } from '../../server/platform/openapi.js';
import { conformanceProblems } from '../helpers/contract.js';

type Json = Record<string, any>;
const doc: Json = publishedDocument();
const resolve = (node: Json): Json => (node?.$ref ? resolve(node.$ref.split('/').slice(1).reduce((at: Json, key: string) => at[key], doc)) : node);
/** Every operation of the contract with its path item entry. */
const operations = Object.values(doc.paths as Json).flatMap((item: Json) =>
  Object.values(item).filter((op: Json) => typeof op?.operationId === 'string') as Json[]);
/** The JSON examples of a request body or a response, by name. */
const jsonExamples = (body: Json | undefined): Record<string, Json> =>
  Object.fromEntries(Object.entries(resolve(body ?? {}).content?.['application/json']?.examples ?? {})
    .map(([name, example]) => [name, resolve(example as Json).value]));

describe('examples', () => {
  // An example of a response many operations share (components/responses) shows a code of its
  // status, not necessarily one each of them answers: its code is checked against the catalogue.
  const responseExamples = operations.flatMap((op) => Object.entries(op.responses as Json).flatMap(([status, response]) =>
    Object.entries(jsonExamples(response)).map(([name, value]) =>
      [`${op.operationId} ${status} ${name}`, op.operationId, Number(status), value, (response as Json).$ref ? 'catalogue' : 'operation'] as const)));

  it.each(responseExamples)('%s is an answer its operation may give', (_label, operationId, statusCode, value, codesOf) => {
    expect(conformanceProblems(operationId, { statusCode, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) }, codesOf))
      .toEqual([]);
  });

  it('checks an error answer\'s code against its operation\'s x-error-codes', () => {
    const answer = (code: string) => ({ statusCode: 404, headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ statusCode: 404, message: 'Policy not found', error: 'Not Found', code }) });
    expect(conformanceProblems('getPolicy', answer('NOT_FOUND'))).toEqual([]);
    expect(conformanceProblems('getPolicy', answer('ROUTE_NOT_FOUND'))).toEqual(["error code ROUTE_NOT_FOUND is not in getPolicy's x-error-codes for 404 (listed: NOT_FOUND)"]);
    expect(conformanceProblems('getPolicy', answer('CART_EMPTY'), 'catalogue')).toEqual(['error code CART_EMPTY is not a 404 code of spec/errors.yaml']);
  });

  // A typed create or quote shows the answer to its own request example, not a shared one of another kind.
  const typed = operations.filter((op) => /^create\w+(Policy|Quote)$/.test(op.operationId));
  it('covers the 23 typed creates and the 10 quotes', () => expect(typed).toHaveLength(33));

  it.each(typed.map((op) => [op.operationId, op] as const))('%s shows an answer of its request example\'s policy type', (_id, op) => {
    const [request] = Object.values(jsonExamples(op.requestBody));
    const success = Object.entries(op.responses as Json).find(([status]) => status.startsWith('2'))!;
    const answers = Object.values(jsonExamples(success[1]));
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer.data.policyType).toBe(request.policyType);
  });
});

describe('schemas as other generators read them', () => {
  // Generators type each allOf member alone: `data` is required where it is declared, not only by
  // ApiResponse, or a Java, Kotlin or Python SDK types it as possibly missing.
  it('every envelope lists `data` in the required of the object that declares it', () => {
    const loose: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((sub, i) => walk(sub, `${at}/${i}`));
      if (!node || typeof node !== 'object' || /\/examples?(\/|$)/.test(at)) return;
      const schema = node as Json;
      if (schema.properties?.data && !(schema.required ?? []).includes('data')) loose.push(at);
      for (const [key, sub] of Object.entries(schema)) walk(sub, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(loose).toEqual([]);
  });

  it('names no schema after a type most languages already have (Error, Object, String, Date, ...)', () => {
    const taken = ['Error', 'Object', 'String', 'Number', 'Boolean', 'Date', 'File', 'Map', 'List', 'Set', 'Exception', 'Type', 'Class'];
    expect(Object.keys(doc.components.schemas).filter((name) => taken.includes(name))).toEqual([]);
  });
});
