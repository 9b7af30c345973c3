import { declaredResponse, type Operation } from './spec.js';
import type { Expectation } from './generate.js';
import type { Validators } from './validators.js';

/**
 * The oracle: what every answer of the API must satisfy, whatever was sent.
 *
 * - never a 5xx;
 * - the status is one the spec declares for the operation;
 * - a JSON body validates against the schema declared for that status;
 * - a 4xx/5xx body is exactly `{statusCode, message, error}` (+ `code`; + `errors` for a
 *   VALIDATION_ERROR, `checks` for a NOT_READY), `statusCode` = the status
 *   (unless the contract declares a non-JSON answer for that status, like an HTML page, and it came);
 * - and what the request's expectation adds: a 4xx for invalid input, a 401 for missing or bad
 *   credentials, anything but a 401 for a public operation called without credentials.
 */

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

const ERROR_KEYS = new Set(['statusCode', 'message', 'error', 'code', 'requestId']);

export function checkErrorShape(status: number, body: unknown): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [`error body is not an object: ${JSON.stringify(body)?.slice(0, 200)}`];
  const b = body as Record<string, unknown>;
  if (b.statusCode !== status) problems.push(`error body statusCode ${JSON.stringify(b.statusCode)} differs from the HTTP status ${status}`);
  if (typeof b.message !== 'string' || !b.message) problems.push('error body has no string message');
  if (typeof b.error !== 'string' || !b.error) problems.push('error body has no string error');
  if ('code' in b && typeof b.code !== 'string') problems.push('error body code is not a string');
  if ('requestId' in b && typeof b.requestId !== 'string') problems.push('error body requestId is not a string');
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k) && !(k === 'errors' && b.code === 'VALIDATION_ERROR') && !(k === 'checks' && b.code === 'NOT_READY'));
  if (extra.length) problems.push(`error body has keys outside {statusCode, message, error, code, requestId}: ${extra.join(', ')}`);
  if ('errors' in b && b.code === 'VALIDATION_ERROR') problems.push(...fieldErrorProblems(b.errors));
  return problems;
}

/** A VALIDATION_ERROR's `errors`: one to 20 `{field, message, code}`, each field once. */
function fieldErrorProblems(errors: unknown): string[] {
  if (!Array.isArray(errors) || errors.length < 1 || errors.length > 20) return [`error body errors is not a list of 1 to 20 items: ${JSON.stringify(errors)?.slice(0, 200)}`];
  const bad = errors.filter((e) => !e || typeof e !== 'object' || Object.keys(e).sort().join() !== 'code,field,message'
    || !['field', 'message', 'code'].every((k) => typeof e[k] === 'string' && e[k]));
  if (bad.length) return [`error body errors has items that are not {field, message, code}: ${JSON.stringify(bad[0]).slice(0, 200)}`];
  const fields = errors.map((e) => e.field);
  return new Set(fields).size === fields.length ? [] : ['error body errors names a field twice'];
}

export function checkAnswer(validators: Validators, op: Operation, expect: Expectation, answer: Answer): string[] {
  const problems: string[] = [];
  const status = answer.statusCode;
  if (status >= 500) problems.push(`server error ${status}`);
  const declared = declaredResponse(op, status);
  if (!declared) problems.push(`status ${status} is not declared for ${op.operationId} (declared: ${Object.keys(op.responses).join(', ')})`);

  let parsed: unknown;
  let isJson = false;
  const contentType = String(answer.headers['content-type'] ?? '');
  if (answer.body.length) {
    try { parsed = JSON.parse(answer.body); isJson = true; } catch { /* checked below */ }
  }
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const declaredOtherType = mediaType !== 'application/json' && declared?.contentTypes.some((type) => type.split(';')[0].trim().toLowerCase() === mediaType);
  if (declaredOtherType) {
    // A declared non-JSON answer (an export, a file): its type is the contract; its bytes are not JSON.
    if (!answer.body.length) problems.push(`empty ${mediaType} body`);
  } else if (declared?.schema) {
    if (!isJson) problems.push(`body is not JSON (content-type ${contentType || 'none'}): ${answer.body.slice(0, 200)}`);
    else {
      if (!/^application\/json/i.test(contentType)) problems.push(`JSON body sent with content-type ${contentType || 'none'}`);
      const validate = validators.body(declared.schema);
      if (!validate(parsed)) problems.push(`body does not match the ${declared.status} schema: ${validators.errorsText(validate)}`);
    }
  } else if (declared && declared.contentTypes.length === 0 && answer.body.length && status !== 204) {
    // Declared without content: any body is undocumented (an error still has to have its shape).
    if (status < 400) problems.push(`status ${status} is declared without a body but one was sent`);
  }
  if (status === 204 && answer.body.length) problems.push('204 with a body');
  // An error is in the error shape, unless the contract declares it as a page (an HTML 404 a
  // browser shows) and that is what came.
  if (status >= 400 && !declaredOtherType) {
    if (!isJson) problems.push(`error answer is not JSON: ${answer.body.slice(0, 200)}`);
    else problems.push(...checkErrorShape(status, parsed));
  }

  switch (expect) {
    case 'reject':
      if (status < 400 || status >= 500) problems.push(`invalid input answered ${status}, not a 4xx`);
      break;
    case 'unauthorized':
      if (status !== 401) problems.push(`missing or bad credentials answered ${status}, not 401`);
      break;
    case 'authorized':
      if (status === 401) problems.push('a public operation answered 401 without credentials');
      break;
    default:
      break;
  }
  return problems;
}
