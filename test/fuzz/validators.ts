import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadSpec, type Json } from './spec.js';

/**
 * JSON Schema 2020-12 validators compiled from the contract. The whole bundled document is
 * registered as `openapi.json`, and every schema compiled here has its `#/components/...`
 * references rebased onto it, so response and request schemas resolve exactly as written.
 */

const DOC_ID = 'openapi.json';

function stripMappings(node: Json): Json {
  if (Array.isArray(node)) return node.map(stripMappings);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // ajv's `discriminator` takes the property name but not OpenAPI's `mapping`.
    if (key === 'discriminator' && value && typeof value === 'object') {
      const { mapping: _mapping, ...rest } = value as Json;
      out[key] = rest;
    } else out[key] = stripMappings(value);
  }
  return out;
}

function rebase(node: Json): Json {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOC_ID}${value}` : rebase(value);
  }
  return out;
}

export interface Validators {
  /** Validates a value against a schema of the document (bodies: no coercion). */
  body(schema: Json): ValidateFunction;
  /** Validates query or path values, which arrive as strings (coerced, as the server does). */
  parameters(schema: Json): ValidateFunction;
  errorsText(validate: ValidateFunction): string;
}

function makeAjv(doc: Json, coerce: boolean) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    discriminator: true,
    validateSchema: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: false,
    multipleOfPrecision: 6, // as the server (server/validation.ts)
  });
  addFormats.default(ajv);
  for (const format of ['binary', 'byte', 'int32', 'int64', 'float', 'double', 'password']) ajv.addFormat(format, true);
  ajv.addSchema(stripMappings(doc), DOC_ID);
  return ajv;
}

const cache = new WeakMap<object, Validators>();

export function validatorsFor(doc: Json = loadSpec()): Validators {
  const hit = cache.get(doc);
  if (hit) return hit;
  const bodyAjv = makeAjv(doc, false);
  const parameterAjv = makeAjv(doc, true);
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ajv: Ajv2020, tag: string, schema: Json) => {
    const key = `${tag}:${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rebase(stripMappings(schema ?? {})));
      compiled.set(key, validate);
    }
    return validate;
  };
  const validators: Validators = {
    body: (schema) => compile(bodyAjv, 'b', schema),
    parameters: (schema) => compile(parameterAjv, 'p', schema),
    errorsText: (validate) => (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` '${e.params.additionalProperty}'` : ''}${e.params && 'unevaluatedProperty' in e.params ? ` '${e.params.unevaluatedProperty}'` : ''}`)
      .join('; '),
  };
  cache.set(doc, validators);
  return validators;
}
