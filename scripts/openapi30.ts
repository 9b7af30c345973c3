/**
 * OpenAPI 3.1 -> 3.0, for the tools that only read 3.0 well: openapi-generator 7.0.0 (`npm run sdk`)
 * and openapi-diff (`npm run contract:breaking`).
 *
 * @apiture/openapi-down-convert does the conversion; `fixUp` then rewrites what it leaves that
 * generator 7.0.0 rejects or mistypes, and `leftovers` lists any 3.1 / JSON Schema 2020-12 form
 * still there (`toOpenApi30` refuses a document with any). The input document is not changed.
 */
import { Converter } from '@apiture/openapi-down-convert';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };
export const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document cannot be converted to an OpenAPI 3.0 one the tools read faithfully. */
export class ConversionError extends Error {
  override name = 'ConversionError';
}
function fail(message: string): never {
  throw new ConversionError(message);
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Calls `visit` on every schema object of an OpenAPI 3.0 document, parents before children. */
export function visitSchemas(doc: Obj, visit: (schema: Obj, where: string, owner: string) => void) {
  const schema = (node: Json | undefined, where: string, owner: string) => {
    if (!isObj(node)) return;
    visit(node, where, owner);
    if (isObj(node.properties)) {
      for (const [name, sub] of Object.entries(node.properties)) schema(sub, `${where}/properties/${name}`, owner);
    }
    for (const key of ['items', 'additionalProperties', 'not']) schema(node[key], `${where}/${key}`, owner);
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((sub, i) => schema(sub, `${where}/${key}/${i}`, owner));
    }
  };
  const content = (node: Json | undefined, where: string, owner: string) => {
    if (!isObj(node)) return;
    for (const [type, media] of Object.entries(node)) if (isObj(media)) schema(media.schema, `${where}/${type}/schema`, owner);
  };
  const parameter = (node: Json | undefined, where: string, owner: string) => {
    if (!isObj(node)) return;
    schema(node.schema, `${where}/schema`, owner);
    content(node.content, `${where}/content`, owner);
  };
  const response = (node: Json | undefined, where: string, owner: string) => {
    if (!isObj(node)) return;
    content(node.content, `${where}/content`, owner);
    if (isObj(node.headers)) for (const [name, header] of Object.entries(node.headers)) parameter(header, `${where}/headers/${name}`, owner);
  };
  const components = isObj(doc.components) ? doc.components : {};
  for (const [name, sub] of Object.entries(isObj(components.schemas) ? components.schemas : {})) schema(sub, `#/components/schemas/${name}`, name);
  for (const [name, sub] of Object.entries(isObj(components.parameters) ? components.parameters : {})) parameter(sub, `#/components/parameters/${name}`, name);
  for (const [name, sub] of Object.entries(isObj(components.headers) ? components.headers : {})) parameter(sub, `#/components/headers/${name}`, name);
  for (const [name, sub] of Object.entries(isObj(components.requestBodies) ? components.requestBodies : {})) {
    if (isObj(sub)) content(sub.content, `#/components/requestBodies/${name}/content`, name);
  }
  for (const [name, sub] of Object.entries(isObj(components.responses) ? components.responses : {})) response(sub, `#/components/responses/${name}`, name);
  for (const [route, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    const at = `#/paths/${route.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (Array.isArray(item.parameters)) item.parameters.forEach((p, i) => parameter(p, `${at}/parameters/${i}`, route));
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const owner = typeof op.operationId === 'string' ? op.operationId : `${method} ${route}`;
      if (Array.isArray(op.parameters)) op.parameters.forEach((p, i) => parameter(p, `${at}/${method}/parameters/${i}`, owner));
      if (isObj(op.requestBody)) content(op.requestBody.content, `${at}/${method}/requestBody/content`, owner);
      if (isObj(op.responses)) for (const [status, res] of Object.entries(op.responses)) response(res, `${at}/${method}/responses/${status}`, owner);
    }
  }
}

const isNullType = (schema: Json) => isObj(schema) && schema.type === 'null' && Object.keys(schema).every((k) => k === 'type' || k === 'description');
const pascal = (text: string) => text.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * What @apiture/openapi-down-convert 0.14 leaves that generator 7.0.0 rejects or mistypes. Each
 * fix answers a note for the log. The spec itself is not touched.
 */
function fixUp(doc: Obj): string[] {
  const notes: string[] = [];
  const info = isObj(doc.info) ? doc.info : {};
  if ('summary' in info) { // 3.1-only; 7.0.0's validator rejects it ("attribute info.summary is unexpected")
    delete info.summary;
    notes.push('#/info/summary: removed (OpenAPI 3.0 has no info.summary)');
  }
  visitSchemas(doc, (schema, where) => {
    // The converter turns only truthy consts into enums (`if (schema.const)`): `const: false`, 0 or '' stay.
    if ('const' in schema) {
      schema.enum = [schema.const];
      delete schema.const;
      notes.push(`${where}: const -> one-value enum`);
    }
    // if/then/else state validation rules only (a motor asset's conditional requirements): 3.0 has
    // no form for them, and generated types do not depend on them. The server still enforces them.
    if ('if' in schema || 'then' in schema || 'else' in schema) {
      delete schema.if; delete schema.then; delete schema.else;
      notes.push(`${where}: if/then/else dropped (validation only)`);
    }
    if (Array.isArray(schema.allOf)) {
      const kept = schema.allOf.filter((branch) => !(isObj(branch) && Object.keys(branch).length === 0) && !(isObj(branch) && ['if', 'then', 'else'].some((k) => k in branch) && Object.keys(branch).every((k) => ['if', 'then', 'else'].includes(k))));
      if (kept.length !== schema.allOf.length) {
        if (kept.length) schema.allOf = kept; else delete schema.allOf;
        notes.push(`${where}: conditional-only allOf branches dropped (validation only)`);
      }
    }
    // The converter handles [x, 'null'] only; a wider type list has no 3.0 form the generator types.
    if (Array.isArray(schema.type)) {
      const types = schema.type.filter((t) => t !== 'null');
      if (types.length !== 1) fail(`${where}: type ${JSON.stringify(schema.type)} has no OpenAPI 3.0 form (use oneOf in the spec)`);
      if (types.length < schema.type.length) schema.nullable = true;
      schema.type = types[0];
      notes.push(`${where}: type list -> ${String(types[0])}${schema.nullable ? ', nullable' : ''}`);
    }
    // oneOf/anyOf [X, {type: 'null'}] is 3.1's nullable reference; 3.0 says allOf [X] + nullable.
    for (const key of ['oneOf', 'anyOf'] as const) {
      const list = schema[key];
      if (!Array.isArray(list) || !list.some(isNullType)) continue;
      const rest = list.filter((branch) => !isNullType(branch));
      schema.nullable = true;
      if (rest.length === 1) {
        delete schema[key];
        const only = rest[0];
        if (isObj(only) && typeof only.$ref === 'string') schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), only];
        else if (isObj(only)) Object.assign(schema, only);
      } else {
        schema[key] = rest;
      }
      notes.push(`${where}: ${key} with {type: null} -> nullable`);
    }
    // `enum: [..., null]`: 7.0.0 makes the null a string member ('null'); nullable says it instead.
    if (Array.isArray(schema.enum) && schema.enum.includes(null)) {
      schema.enum = schema.enum.filter((value) => value !== null);
      schema.nullable = true;
      notes.push(`${where}: null dropped from enum (nullable says it)`);
    }
  });
  // An inline enum property never gets `| null` from 7.0.0's typescript-fetch (its template writes
  // the enum type alone), while `allOf: [$ref] + nullable` gives `Enum | null`. Such enums become
  // a reference: to the component with the same values when there is one, else to a new one.
  const schemas = (isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {}) as Obj;
  const added: Obj = {};
  visitSchemas(doc, (schema, where, owner) => {
    if (!isObj(schema.properties)) return;
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!isObj(prop) || prop.nullable !== true || !Array.isArray(prop.enum) || typeof prop.$ref === 'string') continue;
      const values = JSON.stringify([...prop.enum].sort());
      const same = ([, value]: [string, Json]) => isObj(value) && value.type === prop.type && value.nullable !== true &&
        Array.isArray(value.enum) && JSON.stringify([...value.enum].sort()) === values;
      let target = Object.entries(schemas).find(same)?.[0] ?? Object.entries(added).find(same)?.[0];
      if (!target) {
        target = `${pascal(owner)}${pascal(name)}`;
        if (target in schemas || target in added) fail(`${where}: cannot name a schema for this nullable enum (${target} is taken)`);
        const { nullable: _nullable, description: _description, ...enumSchema } = prop;
        added[target] = enumSchema;
      }
      const replacement: Obj = { allOf: [{ $ref: `#/components/schemas/${target}` }], nullable: true };
      if (typeof prop.description === 'string') replacement.description = prop.description;
      schema.properties[name] = replacement;
      notes.push(`${where}/properties/${name}: nullable inline enum -> allOf [${target}] + nullable`);
    }
  });
  Object.assign(schemas, added);
  return notes;
}

/** Every OpenAPI 3.1 / JSON Schema 2020-12 form still in the 3.0 document, as `where: what`. */
export function leftovers(doc: Obj): string[] {
  const found: string[] = [];
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.0.')) found.push(`#/openapi: ${String(doc.openapi)}`);
  for (const key of ['webhooks', 'jsonSchemaDialect']) if (key in doc) found.push(`#/${key}`);
  const info = isObj(doc.info) ? doc.info : {};
  if ('summary' in info) found.push('#/info/summary');
  if (isObj(info.license) && 'identifier' in info.license) found.push('#/info/license/identifier');
  if (isObj(doc.components) && 'pathItems' in doc.components) found.push('#/components/pathItems');
  const keywords = ['const', 'examples', '$schema', '$id', '$anchor', '$defs', '$dynamicRef', '$dynamicAnchor', '$comment',
    'prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'else',
    'contentMediaType', 'contentEncoding', 'contentSchema', 'patternProperties', 'propertyNames', 'minContains', 'maxContains', 'contains'];
  visitSchemas(doc, (schema, where) => {
    for (const key of keywords) if (key in schema) found.push(`${where}: ${key}`);
    if (Array.isArray(schema.type) || schema.type === 'null') found.push(`${where}: type ${JSON.stringify(schema.type)}`);
    for (const key of ['exclusiveMinimum', 'exclusiveMaximum']) if (key in schema && typeof schema[key] !== 'boolean') found.push(`${where}: numeric ${key}`);
    if (typeof schema.$ref === 'string' && Object.keys(schema).length > 1) found.push(`${where}: $ref with siblings (ignored in 3.0)`);
    if (Array.isArray(schema.enum) && schema.enum.includes(null)) found.push(`${where}: null in enum`);
    if (isObj(schema.properties)) {
      for (const [name, prop] of Object.entries(schema.properties)) {
        if (isObj(prop) && prop.nullable === true && Array.isArray(prop.enum)) found.push(`${where}/properties/${name}: nullable inline enum`);
      }
    }
  });
  return found;
}

export interface ToOpenApi30Options {
  /** Names the document in error messages (a file path); default "the document". */
  source?: string;
  /** Receives one note per fix-up made after the converter (`where: what`). */
  notes?: string[];
}

/**
 * The OpenAPI 3.0 form of an OpenAPI 3.1 document: down-converted, fixed up, and checked for any
 * 3.1 form left. Throws ConversionError when that cannot be done faithfully.
 */
export function toOpenApi30(doc31: Obj, options: ToOpenApi30Options = {}): Obj {
  let doc: Obj;
  try {
    doc = new Converter(doc31, { verbose: false, deleteExampleWithId: false, allOfTransform: false }).convert() as Obj;
  } catch (error) {
    fail(`@apiture/openapi-down-convert could not convert ${options.source ?? 'the document'}: ${(error as Error).message}`);
  }
  const notes = fixUp(doc);
  options.notes?.push(...notes);
  const left = leftovers(doc);
  if (left.length) fail(`the 3.0 document still has 3.1 forms the generator would mistype:\n  ${left.join('\n  ')}`);
  return doc;
}
