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
  ) {
    super(message);
    this.name = 'ApiError';
  }
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

/** The helpers: a 400 is a validation error unless it says otherwise; 401, 403 and 409 name their own code. */
export const badRequest = (message: string, code: ErrorCode = 'VALIDATION_ERROR') => new ApiError(400, code, message);
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
}

export function errorBody(statusCode: number, message: string, code?: ErrorCode): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', ...(code ? { code } : {}) };
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, any>;
  parentSchema?: Record<string, any>;
}

/**
 * Turns ajv's errors into one sentence that names the field (`body.assets[0].seats ...`): the
 * first error, unless a failed `oneOf`/`anyOf` says in `x-error-message` what it wants instead.
 */
export function validationMessage(context: string, errors: AjvError[]): string {
  const error = errors.find((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && e.parentSchema?.['x-error-message']) ?? errors[0];
  const where = [context, ...error.instancePath.split('/').slice(1)]
    .map((part, i) => (i > 0 && /^\d+$/.test(part) ? `[${part}]` : i > 0 ? `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}` : part))
    .join('');
  const custom = error.parentSchema?.['x-error-message'];
  switch (error.keyword) {
    case 'required':
      return `${where}.${error.params.missingProperty} is required`;
    case 'additionalProperties':
      return `${where} has an unknown property '${error.params.additionalProperty}'`;
    case 'unevaluatedProperties':
      return `${where} has an unknown property '${error.params.unevaluatedProperty}'`;
    case 'anyOf':
    case 'oneOf':
      return custom ? `${where}: ${custom}` : `${where} ${error.message}`;
    case 'discriminator':
      return error.params.error === 'tag'
        ? `${where}.${error.params.tag} is required`
        : `${where}.${error.params.tag} must be one of the allowed values`;
    case 'enum':
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return custom ? `${where} ${custom}` : `${where} ${error.message}`;
  }
}
