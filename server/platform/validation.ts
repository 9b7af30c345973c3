import { createRequire } from 'node:module';
import { Ajv2020 as Ajv, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FormatDefinition, ValidateFunction } from 'ajv';
import { invalidRequest, type AjvError } from './errors.js';
import { documentForAjv } from './openapi.js';

const matches = (format: FormatDefinition<string>, value: string) =>
  format.validate instanceof RegExp ? format.validate.test(value) : Boolean((format.validate as (v: string) => boolean)(value));

/**
 * ajv as the contract needs it: OpenAPI's `discriminator`, no silent stripping of unknown
 * properties (the contract says `additionalProperties: false` and means it), and verbose errors so
 * messages can use a schema's own `x-error-message`. Bodies are never type-coerced (a string is not
 * a number); query strings and path parameters are.
 */
function makeAjv(options: Options) {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    verbose: true,
    discriminator: true,
    removeAdditional: false,
    useDefaults: true,
    addUsedSchema: false,
    // multipleOf: 0.01 (money) compares with a tolerance: 19.99 / 0.01 is 1998.9999999999998 in floats.
    multipleOfPrecision: 6,
    ...options,
  });
  addFormats.default(ajv);
  // PostgreSQL has no year 0: dates ajv-formats accepts for it could not be stored.
  for (const name of ['date', 'date-time'] as const) {
    const standard = addFormats.default.get(name) as FormatDefinition<string>;
    ajv.addFormat(name, { ...standard, validate: (value: string) => !value.startsWith('0000') && matches(standard, value) });
  }
  // OpenAPI format names ajv-formats does not know: annotations only.
  for (const format of ['binary', 'byte', 'int32', 'int64', 'float', 'double', 'password']) {
    ajv.addFormat(format, true);
  }
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const parameterAjv = makeAjv({ coerceTypes: 'array' });
// The same, going on after the first error: run only on a request already found invalid (`everyError`).
const bodyAjvEvery = makeAjv({ coerceTypes: false, allErrors: true });
const parameterAjvEvery = makeAjv({ coerceTypes: 'array', allErrors: true });

/**
 * How much of an invalid request is checked past its first error: at most this many array items
 * and values in all. ajv's `allErrors` does not stop at a failed `maxItems` (it checks every item
 * anyway) and gathers the errors of `$ref`'d items by copying the list so far, so its work grows
 * with the square of the items: 20 000 empty vehicles (a 60 KB body) took 27 s of CPU, 500 take
 * about 4 ms. Past these limits `errors` holds the first error only. The contract's longest request
 * array takes 500 items.
 */
export const EVERY_ERROR_LIMITS = { arrayItems: 500, values: 20_000 };

/** Whether a request is small enough to be checked past its first error (`EVERY_ERROR_LIMITS`). */
export function withinEveryErrorLimits(data: unknown): boolean {
  let arrayItems = 0;
  let values = 0;
  const pending: unknown[] = [data];
  while (pending.length) {
    const value = pending.pop();
    if (++values > EVERY_ERROR_LIMITS.values) return false;
    if (Array.isArray(value)) {
      arrayItems += value.length;
      if (arrayItems > EVERY_ERROR_LIMITS.arrayItems) return false;
      pending.push(...value);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return true;
}

const EVERY = Symbol('every error');
type Errors = NonNullable<ValidateFunction['errors']>;

/** The errors a failed route validation found past the first (`compileValidator`), else the first alone. */
export const everyError = (errors: AjvError[]): AjvError[] => (errors as AjvError[] & { [EVERY]?: AjvError[] })[EVERY] ?? errors;

/**
 * A route's validator, compiled by the first request that needs it: compiling the contract's 185
 * operations up front held some 100 MB for routes most servers rarely see. Fastify calls it as it
 * would ajv's own function (`errors` after a `false`). It stops at the first error, so a valid
 * request costs what it always did; an invalid one within `EVERY_ERROR_LIMITS` is checked again by
 * a validator that goes on (compiled by the route's first invalid request), whose errors ride on
 * the first's for the error handler (`everyError`).
 */
export function compileValidator({ schema, httpPart }: { schema: any; httpPart?: string }) {
  let compiled: ValidateFunction | undefined;
  let every: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= (httpPart === 'body' ? bodyAjv : parameterAjv).compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    if (!valid && withinEveryErrorLimits(data)) {
      every ??= (httpPart === 'body' ? bodyAjvEvery : parameterAjvEvery).compile(schema);
      every(data);
      if (every.errors?.length) Object.defineProperty(compiled.errors as Errors, EVERY, { value: every.errors });
    }
    return valid;
  };
  validate.errors = undefined as ValidateFunction['errors'];
  return validate;
}

let contractLoaded = false;
let everyContractLoaded = false;

/**
 * Checks a value against one of the contract's schemas (`components/schemas/<name>`) exactly as
 * request bodies are checked, for input ajv does not see on its own (multipart form fields, a
 * cart item at checkout). The contract is read as the router reads it (ajv takes no
 * discriminator `mapping`).
 */
export function checkAgainstSchema(name: string, value: unknown, context = 'body'): void {
  if (!contractLoaded) {
    bodyAjv.addSchema(documentForAjv() as object, 'openapi.json');
    contractLoaded = true;
  }
  const validate = bodyAjv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the contract`);
  if (validate(value)) return;
  const first = [...(validate.errors as AjvError[])];
  if (!withinEveryErrorLimits(value)) throw invalidRequest(context, first);
  if (!everyContractLoaded) {
    bodyAjvEvery.addSchema(documentForAjv() as object, 'openapi.json');
    everyContractLoaded = true;
  }
  const every = bodyAjvEvery.getSchema(`openapi.json#/components/schemas/${name}`)!;
  every(value);
  throw invalidRequest(context, first, (every.errors ?? first) as AjvError[]);
}

type SerializerBuilder = (externalSchemas: unknown, options: unknown) => (route: { schema?: unknown }) => (data: unknown) => string;
/** Fastify's own serializer builder (fast-json-stringify), the one the fastify in use depends on. */
const fastifySerializers: () => SerializerBuilder = createRequire(import.meta.resolve('fastify'))('@fastify/fast-json-stringify-compiler');

/**
 * Fastify's answer serializers (fast-json-stringify) as they are, each compiled by the first answer
 * that needs it rather than at start, as validators are.
 */
export const lazySerializers: SerializerBuilder = (externalSchemas, options) => {
  const build = fastifySerializers()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= build(route))(data);
  };
};
