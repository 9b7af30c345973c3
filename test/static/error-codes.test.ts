import { readFileSync } from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { ERROR_CATALOGUE } from '../../generated/errors.js';
import { ERRORS_MODULE, ERRORS_PAGE, errorsModule, errorsPage, operationsOf, readCatalogue, routeKindsOf, type RouteKind } from '../../scripts/error-codes.js';
import { codesByStatus, DOMAIN_EVENTS, ErrorReach, unlistedCodes, type ErrorSite } from '../helpers/error-reach.js';

/**
 * Every error code the server can answer for an operation is in the contract for that operation
 * and status (its `x-error-codes`), read from the source (test/helpers/error-reach.ts): the codes
 * reachable from the operation's handler, plus the platform's for the operation's kinds (security
 * schemes, a request body, an Idempotency-Key), reachable from the app functions that raise them.
 */

const root = path.resolve(import.meta.dirname, '../..');
const bundle = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));
const catalogue = readCatalogue(root);

/** Where the server raises each kind's codes: app functions (file, name), not going through `except`. */
const PLATFORM_SOURCES: Record<RouteKind, { from: [string, string][]; except?: [string, string][] }> = {
  every: { from: [['server/app/errors.ts', 'frameworkError'], ['server/app/body.ts', 'checkNoNul'], ['server/app/shutdown.ts', 'shutdownGate']], except: [['server/app/errors.ts', 'fastifyClientError']] },
  requestBody: { from: [['server/app/errors.ts', 'fastifyClientError'], ['server/app/body.ts', 'checkBody'], ['server/app/body.ts', 'registerBodyParsers']] },
  idempotencyKey: { from: [['server/platform/idempotency.ts', 'idempotent']] },
  apiKey: { from: [['server/app/security.ts', 'apiKeyOf'], ['server/app/security.ts', 'readTenantAndToken']] },
  bearerAuth: {
    from: [['server/app/security.ts', 'securityHook']],
    except: [['server/app/security.ts', 'checkOperatorKey'], ['server/app/security.ts', 'checkMetricsToken'], ['server/app/security.ts', 'permitted'], ['server/app/security.ts', 'apiKeyOf'], ['server/app/security.ts', 'readTenantAndToken']],
  },
  staffAuth: {
    from: [['server/app/security.ts', 'securityHook']],
    except: [['server/app/security.ts', 'checkOperatorKey'], ['server/app/security.ts', 'checkMetricsToken'], ['server/app/security.ts', 'apiKeyOf'], ['server/app/security.ts', 'readTenantAndToken']],
  },
  operatorKey: { from: [['server/app/security.ts', 'checkOperatorKey']] },
  metricsToken: { from: [['server/app/security.ts', 'checkMetricsToken']] },
  webhookSignature: { from: [['server/app/security.ts', 'webhookSignatureCheck']] },
};

const asLists = (byStatus: Map<number, Set<string>>) =>
  Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [String(status), [...codes].sort()]));

describe('error codes (spec/errors.yaml, x-error-codes)', () => {
  let reach: ErrorReach;
  let handlers: Map<string, ts.Node>;
  let platformSites: Record<RouteKind, ErrorSite[]>;

  beforeAll(() => {
    reach = new ErrorReach(root, ['handlers/index.ts', 'server/app/app.ts'], { events: DOMAIN_EVENTS });
    handlers = reach.membersOf('handlers/index.ts', 'handlers');
    const named = ([file, name]: [string, string]) => reach.declarationNamed(file, name);
    platformSites = Object.fromEntries(Object.entries(PLATFORM_SOURCES)
      .map(([kind, { from, except = [] }]) => [kind, reach.sitesFrom(from.map(named), except.map(named))])) as Record<RouteKind, ErrorSite[]>;
  }, 180_000);

  it('every error site of the server names literal codes of the catalogue, with one of their statuses', () => {
    const files = reach.program.getSourceFiles().filter((file) => !file.isDeclarationFile && file.fileName.startsWith(`${root}/`)
      && !file.fileName.includes('/node_modules/') && !file.fileName.endsWith('server/platform/errors.ts') && !file.fileName.includes('/fixtures/'));
    const problems = reach.sitesFrom(files).flatMap((site) => [
      ...(site.problem ? [`${site.at}: ${site.problem}`] : []),
      ...site.codes.flatMap((code) => {
        const entry = (ERROR_CATALOGUE as Record<string, { status: readonly number[] }>)[code];
        if (!entry) return [`${site.at}: ${code} is not in spec/errors.yaml`];
        return site.statuses.filter((status) => !entry.status.includes(status)).map((status) => `${site.at}: ${code} with ${status}, not ${entry.status.join(', ')}`);
      }),
    ]);
    expect(problems).toEqual([]);
  });

  it('each platform kind lists every code the app raises for it (spec/errors.yaml platform)', () => {
    for (const kind of Object.keys(PLATFORM_SOURCES) as RouteKind[]) {
      const thrown = codesByStatus(platformSites[kind]);
      expect({ kind, unlisted: unlistedCodes(thrown, catalogue.platform[kind], [...thrown.keys()].map(String)) }).toEqual({ kind, unlisted: [] });
    }
  });

  it('every operation lists, for each status it declares, every code its handler and its kinds can raise', () => {
    const missing: Record<string, string[]> = {};
    const operations = operationsOf(bundle);
    expect(operations.map(({ op }) => op.operationId).sort()).toEqual([...handlers.keys()].sort());
    for (const { op } of operations) {
      const sites = [...reach.sitesFrom([handlers.get(op.operationId)!]), ...routeKindsOf(op, bundle.security).flatMap((kind) => platformSites[kind])];
      const unlisted = unlistedCodes(codesByStatus(sites), op['x-error-codes'] ?? {}, Object.keys(op.responses));
      if (unlisted.length) missing[op.operationId] = unlisted;
    }
    expect(missing).toEqual({});
  }, 120_000);

  it('follows a recorded event to the reactions of its own type only', () => {
    const files = (file: string, name: string) => new Set(reach.sitesFrom([reach.declarationNamed(file, name)]).map((site) => site.at.split(':')[0]));
    // directDebit.created: its policy waits for debits (a policy's move).
    expect(files('server/domain/money/mandates.ts', 'setUpMandate')).toContain('server/domain/states/policy.ts');
    // A claim's events have no reactions: nothing of another event's.
    expect(files('server/domain/claims/events.ts', 'recordClaimEvent')).not.toContain('server/domain/states/policy.ts');
  });

  it('generated/errors.ts and the Errors page are what npm run generate makes', () => {
    expect(readFileSync(path.join(root, ERRORS_MODULE), 'utf8')).toBe(errorsModule(catalogue));
    expect(readFileSync(path.join(root, ERRORS_PAGE), 'utf8')).toBe(errorsPage(catalogue, bundle));
  });
});

describe('the error reach (test/helpers/error-reach.ts), on a miniature project', () => {
  const fixture = path.join(import.meta.dirname, 'fixtures/error-reach');
  let reach: ErrorReach;
  let handlers: Map<string, ts.Node>;

  beforeAll(() => {
    reach = new ErrorReach(fixture, ['handlers.ts'], { errorsModule: 'errors.ts' });
    handlers = reach.membersOf('handlers.ts', 'handlers');
  }, 60_000);

  it('follows calls through functions, typed tables, helpers\' defaults and interface implementations', () => {
    expect(asLists(codesByStatus(reach.sitesFrom([handlers.get('saveThing')!])))).toEqual({
      404: ['NOT_FOUND'], 409: ['EMAIL_TAKEN', 'NAME_TAKEN', 'STORE_FULL'],
    });
    expect(asLists(codesByStatus(reach.sitesFrom([handlers.get('checkThing')!])))).toEqual({ 400: ['VALIDATION_ERROR'] });
  });

  it('fails an operation whose list lacks a code it can throw, and passes it once listed', () => {
    const thrown = codesByStatus(reach.sitesFrom([handlers.get('saveThing')!]));
    expect(unlistedCodes(thrown, { 404: ['NOT_FOUND'], 409: ['EMAIL_TAKEN', 'NAME_TAKEN'] }, ['200', '404', '409'])).toEqual(['409 STORE_FULL']);
    expect(unlistedCodes(thrown, { 404: ['NOT_FOUND'] }, ['200', '404', '409'])).toEqual(['409 EMAIL_TAKEN', '409 NAME_TAKEN', '409 STORE_FULL']);
    expect(unlistedCodes(thrown, { 404: ['NOT_FOUND'], 409: ['EMAIL_TAKEN', 'NAME_TAKEN', 'STORE_FULL'] }, ['200', '404', '409'])).toEqual([]);
  });

  it('reports a site whose code is any string', () => {
    const [site] = reach.sitesFrom([handlers.get('looseThing')!]);
    expect(site.problem).toMatch(/code is of type string, not literals/);
    expect(site.at).toBe('domain.ts:18');
  });
});
