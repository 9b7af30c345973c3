/**
 * The error catalogue (spec/errors.yaml) into what `npm run generate` writes from it: each
 * operation's full `x-error-codes` in the bundle (its own list from its path file plus the
 * platform's codes for its kinds, for the statuses it declares), the `ErrorCode` schema in the
 * bundle's components (for SDKs; no response refers to it, so adding a code breaks no client),
 * generated/errors.ts (the `ErrorCode` union the server's errors require, and the catalogue as
 * data) and the docs site's Errors page. It fails on a code the catalogue lacks, a status the code
 * does not come with, or a list for a status the operation does not declare.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const ERRORS_SOURCE = 'spec/errors.yaml';
export const ERRORS_MODULE = 'generated/errors.ts';
export const ERRORS_PAGE = 'docs/docs/errors.md';

export interface ErrorEntry { status: number[]; meaning: string; action: string }
/** Status (as the responses key it: `'404'`) -> codes. */
export type CodesByStatus = Record<string, string[]>;
export const ROUTE_KINDS = ['every', 'requestBody', 'idempotencyKey', 'apiKey', 'bearerAuth', 'staffAuth', 'operatorKey', 'metricsToken', 'webhookSignature'] as const;
/** The shared `Idempotency-Key` header parameter, as the bundle refers to it: an operation that takes it is of the `idempotencyKey` kind. */
export const IDEMPOTENCY_KEY_PARAMETER = '#/components/parameters/IdempotencyKey';
export type RouteKind = (typeof ROUTE_KINDS)[number];
export interface ErrorCatalogue { codes: Record<string, ErrorEntry>; platform: Record<RouteKind, CodesByStatus> }

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface BundleOperation {
  operationId: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  'x-error-codes'?: CodesByStatus;
  'x-doc-slug'?: string;
}
interface Bundle {
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}

export function readCatalogue(root: string): ErrorCatalogue {
  const catalogue = parse(readFileSync(path.join(root, ERRORS_SOURCE), 'utf8')) as ErrorCatalogue;
  for (const kind of ROUTE_KINDS) catalogue.platform[kind] ??= {};
  const unknownKinds = Object.keys(catalogue.platform).filter((kind) => !(ROUTE_KINDS as readonly string[]).includes(kind));
  if (unknownKinds.length) throw new Error(`${ERRORS_SOURCE}: unknown platform kinds ${unknownKinds.join(', ')} (known: ${ROUTE_KINDS.join(', ')})`);
  return catalogue;
}

/** Every operation of a bundle, with its method and path. */
export function operationsOf(bundle: Bundle): { method: string; path: string; op: BundleOperation }[] {
  return Object.entries(bundle.paths).flatMap(([route, item]) => Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ method, path: route, op: op as BundleOperation })));
}

/** Whether an operation of the bundle takes the `Idempotency-Key` header (the shared parameter). */
export function takesIdempotencyKey(op: Pick<BundleOperation, 'parameters'>): boolean {
  return (op.parameters ?? []).some((parameter) => (parameter as { $ref?: string }).$ref === IDEMPOTENCY_KEY_PARAMETER);
}

/**
 * The platform's kinds an operation is of: every one, `requestBody` if it takes one,
 * `idempotencyKey` if it takes the `Idempotency-Key` header, and its security schemes.
 */
export function routeKindsOf(op: Pick<BundleOperation, 'security' | 'requestBody' | 'parameters'>, rootSecurity: Record<string, string[]>[] = []): RouteKind[] {
  const schemes = new Set((op.security ?? rootSecurity).flatMap((requirement) => Object.keys(requirement)));
  return ROUTE_KINDS.filter((kind) => kind === 'every' || (kind === 'requestBody' ? op.requestBody !== undefined
    : kind === 'idempotencyKey' ? takesIdempotencyKey(op) : schemes.has(kind)));
}

/** Codes by status, merged and each list sorted, statuses in order. */
export function mergeCodes(...lists: CodesByStatus[]): CodesByStatus {
  const merged: Record<string, Set<string>> = {};
  for (const list of lists) for (const [status, codes] of Object.entries(list)) for (const code of codes) (merged[status] ??= new Set()).add(code);
  return Object.fromEntries(Object.keys(merged).sort().map((status) => [status, [...merged[status]].sort()]));
}

/**
 * Writes each operation's full `x-error-codes` and the `ErrorCode` schema into `bundle` (in
 * place); throws with every problem found.
 */
export function addErrorCodes(bundle: Bundle, catalogue: ErrorCatalogue): void {
  const problems: string[] = [];
  const known = (code: string, status: string, where: string) => {
    const entry = catalogue.codes[code];
    if (!entry) problems.push(`${where}: ${code} is not in ${ERRORS_SOURCE}`);
    else if (!entry.status.includes(Number(status))) problems.push(`${where}: ${code} comes with ${entry.status.join(', ')} in ${ERRORS_SOURCE}, not ${status}`);
  };
  for (const [kind, list] of Object.entries(catalogue.platform)) {
    for (const [status, codes] of Object.entries(list)) for (const code of codes) known(code, status, `platform.${kind}`);
  }
  for (const { op } of operationsOf(bundle)) {
    const own = op['x-error-codes'] ?? {};
    for (const [status, codes] of Object.entries(own)) {
      if (!(status in op.responses)) problems.push(`${op.operationId}: x-error-codes lists ${status}, which it does not declare`);
      for (const code of codes) known(code, status, op.operationId);
    }
    // A kind's codes are added for the statuses an operation declares; an idempotent one must declare them all.
    if (takesIdempotencyKey(op)) {
      const undeclared = Object.keys(catalogue.platform.idempotencyKey).filter((status) => !(status in op.responses));
      if (undeclared.length) problems.push(`${op.operationId}: takes an Idempotency-Key but does not declare ${undeclared.join(', ')}`);
    }
    const declared = (list: CodesByStatus) => Object.fromEntries(Object.entries(list).filter(([status]) => status in op.responses));
    const merged = mergeCodes(own, ...routeKindsOf(op, bundle.security).map((kind) => declared(catalogue.platform[kind])));
    if (Object.keys(merged).length) op['x-error-codes'] = merged;
  }
  if (problems.length) throw new Error(`error codes:\n  ${problems.join('\n  ')}`);
  bundle.components.schemas.ErrorCode = {
    type: 'string',
    description: 'Every `code` an error answer can carry (see the Errors page; each operation\'s `x-error-codes` lists those it can answer, by status). '
      + 'New codes are added over time: treat an unknown one by its HTTP status.',
    enum: Object.keys(catalogue.codes).sort(),
  };
}

/** generated/errors.ts: the union and the catalogue. */
export function errorsModule(catalogue: ErrorCatalogue): string {
  const codes = Object.keys(catalogue.codes).sort();
  const entries = codes.map((code) => `  ${code}: ${JSON.stringify(catalogue.codes[code])},`);
  return `// Generated by \`npm run generate\` from ${ERRORS_SOURCE}. Do not edit by hand.

/** The catalogue: each error code's HTTP statuses, what it means and what the caller should do. */
export const ERROR_CATALOGUE = {
${entries.join('\n')}
} as const satisfies Record<string, { status: readonly number[]; meaning: string; action: string }>;

/** Every code an error answer can carry: \`ApiError\` takes only these. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;
`;
}

/** Markdown text safe in MDX: no braces or angle brackets read as code. */
const mdx = (text: string) => text.replace(/[{}<>]/g, (c) => `\\${c}`);

/** The docs page: one section (anchor = the code) per code, the platform's kinds, how to read an error. */
export function errorsPage(catalogue: ErrorCatalogue, bundle: Bundle): string {
  const usedBy = new Map<string, number>();
  for (const { op } of operationsOf(bundle)) {
    for (const code of new Set(Object.values(op['x-error-codes'] ?? {}).flat())) usedBy.set(code, (usedBy.get(code) ?? 0) + 1);
  }
  const codes = Object.keys(catalogue.codes).sort();
  const KIND_NAMES: Record<RouteKind, string> = {
    every: 'Every operation', requestBody: 'Operations that take a request body',
    idempotencyKey: 'Operations that take an Idempotency-Key (see [Retrying safely](/docs/authentication#retrying-safely))', apiKey: 'Operations called with an Api-Key',
    bearerAuth: 'Operations of a signed-in client (bearerAuth)', staffAuth: 'Staff operations (staffAuth)',
    operatorKey: 'The platform operator\'s operations (operatorKey)', metricsToken: 'The metrics (metricsToken)', webhookSignature: 'Payment provider webhooks (webhookSignature)',
  };
  const kinds = ROUTE_KINDS.map((kind) => {
    const list = Object.entries(catalogue.platform[kind]).map(([status, list]) => `${status}: ${list.map((code) => `[\`${code}\`](#${code})`).join(', ')}`);
    return `| ${KIND_NAMES[kind]} | ${list.join('<br/>')} |`;
  });
  const sections = codes.map((code) => {
    const entry = catalogue.codes[code];
    const count = usedBy.get(code) ?? 0;
    return `### \`${code}\` {#${code}}

**HTTP ${entry.status.join(', ')}** · ${count ? `listed by ${count} operation${count === 1 ? '' : 's'}` : 'answered outside any operation'}

${mdx(entry.meaning)}

**What to do:** ${mdx(entry.action)}
`;
  });
  return `---
title: Errors
sidebar_label: Errors
sidebar_position: 4
description: Every error code the API answers, its HTTP status, what it means and what to do.
---

{/* Generated by \`npm run generate\` from ${ERRORS_SOURCE}. Do not edit by hand. */}

# Errors

Every 4xx and 5xx answer has one shape, \`{statusCode, message, error, code}\`: \`statusCode\` repeats
the HTTP status, \`message\` says what went wrong for a person (a validation error names the field),
\`error\` is the status's name and \`code\` is the stable value to switch on, one of those below.
A \`VALIDATION_ERROR\` also lists every invalid field in \`errors\` (the first 20), each
\`{field, message, code}\`: \`field\` names it as \`message\` does (\`body.assets[0].seats\`,
\`query.limit\`), \`message\` says what is wrong with it (\`must be >= 1\`), and \`code\` is the rule it
breaks (the JSON Schema keyword, such as \`required\`, \`format\` or \`maximum\`, or \`invalid\` for a
rule the server checks itself). \`message\` names the first of them, so a client that reads only
\`message\` sees what it always did. A request holding more than 500 array items or 20 000 values
in all is checked up to its first error only (the work an invalid request can cause stays
bounded), and \`errors\` then holds that one.
Each operation's page lists, under **Errors**, the codes it can answer and with which status; the
contract carries the same list in each operation's \`x-error-codes\` (by status), and the SDK has
the \`ErrorCode\` type. New codes may be added to the API at any time, so treat an unknown code by
its HTTP status.

Codes the platform answers for whole kinds of operations, besides each operation's own (an
operation's list keeps those of the statuses it declares):

| Operations | Codes by status |
| --- | --- |
${kinds.join('\n')}

## Codes

| Code | HTTP |
| --- | --- |
${codes.map((code) => `| [\`${code}\`](#${code}) | ${catalogue.codes[code].status.join(', ')} |`).join('\n')}

${sections.join('\n')}`;
}
