import { STATUS_CODES } from 'node:http';
import type { ErrorCode } from '../../generated/errors.js';

export type { ErrorCode };

/**
 * A failure the caller can act on: it becomes `{statusCode, message, error, code}`. The code is one
 * of the catalogue's (spec/errors.yaml, generated into `ErrorCode`), and the operation that can
 * throw it lists it for its status in its `x-error-codes` (test/static/error-codes.test.ts checks).
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Each invalid field, for a 400 about the request's fields: the answer's `errors`. */
    readonly errors?: FieldError[],
    /** What else the contract's error schema for this code carries (NOT_READY's `checks`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One invalid field of a request, as the answer's `errors` lists it. */
export interface FieldError {
  /** The field, from the part of the request it is in: `body.assets[0].seats`, `query.limit`, `params.id`. */
  field: string;
  /** What is wrong with it, in words following the field's name: `must be >= 1`, `is required`. */
  message: string;
  /** The rule it breaks: the JSON Schema keyword (`required`, `format`, `maximum`, ...), or `invalid` for a rule the server checks itself. */
  code: string;
}

/** The most invalid fields one answer lists; `message` names the first. */
export const MAX_FIELD_ERRORS = 20;

/** Where a message that names a field starts: `body.x ...`, `query.to ...`, `params.id: ...`. */
const FIELD_FIRST = /^((?:body|query|params|headers)(?:\.[^\s.[:]+|\[\d+\])*):? (.+)$/s;

/** The one field a hand-written 400 names (`body.currency must be GHS`), as a list of one; none when it names no field first. */
export function fieldOfMessage(message: string): FieldError[] | undefined {
  const named = FIELD_FIRST.exec(message);
  return named ? [{ field: named[1], message: named[2], code: 'invalid' }] : undefined;
}

/**
 * A failure a person sees in a browser (the sandbox payment pages): answered as the HTML page,
 * with its status, where the contract declares a `text/html` answer for that status.
 */
export class HtmlError extends ApiError {
  constructor(statusCode: number, code: ErrorCode, message: string, readonly html: string, headers: Record<string, string> = {}) {
    super(statusCode, code, message, headers);
    this.name = 'HtmlError';
  }
}

/**
 * The helpers: a 400 is a validation error unless it says otherwise (then `errors` lists the field
 * its message opens with, if it does); 401, 403 and 409 name their own code.
 */
export const badRequest = (message: string, code: ErrorCode = 'VALIDATION_ERROR') =>
  new ApiError(400, code, message, {}, code === 'VALIDATION_ERROR' ? fieldOfMessage(message) : undefined);
export const unauthorized = (message: string, code: ErrorCode) => new ApiError(401, code, message);
export const forbidden = (message: string, code: ErrorCode) => new ApiError(403, code, message);
export const notFound = (what = 'Resource') => new ApiError(404, 'NOT_FOUND', `${what} not found`);
/** What a path the API does not have answers (`Route GET /api/v1/nothing not found`); `path` without its query. */
export const routeNotFound = (method: string, path: string) => new ApiError(404, 'ROUTE_NOT_FOUND', `Route ${method} ${path} not found`);
export const conflict = (message: string, code: ErrorCode) => new ApiError(409, code, message);
/**
 * 429 with when to retry (Retry-After) and the limit that was hit, in the IETF draft's RateLimit
 * fields (RateLimit-Limit: attempts a window allows, RateLimit-Remaining: none left,
 * RateLimit-Reset: seconds until the window ends, the same as Retry-After).
 */
export const tooManyRequests = (retryAfterSeconds: number, limit: number) =>
  new ApiError(429, 'RATE_LIMITED', `Too many attempts; try again in ${retryAfterSeconds} seconds`, {
    'retry-after': String(retryAfterSeconds),
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(retryAfterSeconds),
  });

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code?: ErrorCode;
  errors?: FieldError[];
  /** The request's id (its `X-Request-Id`), added where the answer is sent. */
  requestId?: string;
}

export function errorBody(statusCode: number, message: string, code?: ErrorCode, errors?: FieldError[], details?: Record<string, unknown>): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', ...(code ? { code } : {}),
    ...(errors?.length ? { errors: errors.slice(0, MAX_FIELD_ERRORS) } : {}), ...details };
}

export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, any>;
  parentSchema?: Record<string, any>;
}

/** A failed `oneOf`/`anyOf` that says in `x-error-message` what it wants: it speaks for the errors of its branches. */
const customised = (e: AjvError) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && Boolean(e.parentSchema?.['x-error-message']);

/** The error a request's answer leads with: the first, unless a failed `oneOf`/`anyOf` has an `x-error-message`. */
const leading = (errors: AjvError[]) => errors.find(customised) ?? errors[0];

/** An ajv error as a field and what is wrong with it, and as the one sentence `message` makes of it. */
function describe(context: string, error: AjvError): { item: FieldError; sentence: string } {
  const where = [context, ...error.instancePath.split('/').slice(1)]
    .map((part, i) => (i > 0 && /^\d+$/.test(part) ? `[${part}]` : i > 0 ? `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}` : part))
    .join('');
  const custom = error.parentSchema?.['x-error-message'];
  const item = (field: string, message: string, sentence = `${field} ${message}`) => ({ item: { field, message, code: error.keyword }, sentence });
  switch (error.keyword) {
    case 'required':
      return item(`${where}.${error.params.missingProperty}`, 'is required');
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const property = error.params.additionalProperty ?? error.params.unevaluatedProperty;
      return item(`${where}.${property}`, `is an unknown property of ${where}`, `${where} has an unknown property '${property}'`);
    }
    case 'anyOf':
    case 'oneOf':
      return custom ? item(where, custom, `${where}: ${custom}`) : item(where, error.message ?? 'is not valid');
    case 'discriminator':
      return item(`${where}.${error.params.tag}`, error.params.error === 'tag' ? 'is required' : 'must be one of the allowed values');
    case 'enum':
      return item(where, `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`);
    case 'const':
      return item(where, `must be ${JSON.stringify(error.params.allowedValue)}`);
    default:
      return item(where, custom ?? error.message ?? 'is not valid');
  }
}

/**
 * A request that breaks the contract, as a 400 `VALIDATION_ERROR`. `message` is one sentence naming
 * the field (`body.assets[0].seats ...`) of the first error a validator stopping there found
 * (`first`), unless a failed `oneOf`/`anyOf` says in `x-error-message` what it wants instead.
 * `errors` is every invalid field of `every` (a validator that went on), led by the one `message`
 * names, each field once, at most `MAX_FIELD_ERRORS`; a failed `oneOf`/`anyOf` with an
 * `x-error-message` speaks for the errors of its branches, which are left out.
 */
export function invalidRequest(context: string, first: AjvError[], every: AjvError[] = first): ApiError {
  const lead = describe(context, leading(first));
  const voiced = every.filter(customised).map((e) => e.instancePath);
  const items = [lead.item];
  for (const error of every) {
    if (items.length >= MAX_FIELD_ERRORS) break;
    if (!customised(error) && voiced.some((path) => error.instancePath === path || error.instancePath.startsWith(`${path}/`))) continue;
    // A failed oneOf/anyOf without words of its own adds nothing to its branches' errors.
    if ((error.keyword === 'oneOf' || error.keyword === 'anyOf') && !customised(error) && every.some((e) => e !== error && e.instancePath.startsWith(error.instancePath))) continue;
    const { item } = describe(context, error);
    if (!items.some((seen) => seen.field === item.field)) items.push(item);
  }
  return new ApiError(400, 'VALIDATION_ERROR', lead.sentence, {}, items);
}
