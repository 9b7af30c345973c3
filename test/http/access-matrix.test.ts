import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app/app.js';
import {
  checkIdOperation, checkKeyTokenMismatch, checkListIsolation, formatFinding, idTakingOperations, listOperations, makeParties,
  type IdOperation, type Parties, type Seeded,
} from '../fuzz/access.js';
import { authHeaders, send } from '../fuzz/http.js';
import { fuzzContext, ResourceFactory, successSchema } from '../fuzz/resources.js';
import { answersResourceId, deref, pathParamNames, type Operation } from '../fuzz/spec.js';
import { syntheticDoc, syntheticTarget } from '../fuzz/synthetic.js';
import { harnessTarget, type Target } from '../fuzz/target.js';
import { activePolicy, standardClaim, type TestPolicy } from '../helpers/claims.js';
import { buyHomePolicy, onlineProductId } from '../helpers/clients.js';
import { createHarness, EXAMPLES_DAY, type Harness } from '../helpers/harness.js';
import { file, multipart, PDF } from '../helpers/multipart.js';

/**
 * The access matrix, generated from the contract (test/fuzz/access.ts): client A of tenant 1 owns
 * resources; client B (same tenant) and tenant 2's clients must get 404 for them, must not see them
 * in lists, and a token only works with its own tenant's Api-Key. New operations are covered as
 * they enter the contract.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261120);
const ctx = fuzzContext();
const idOps = idTakingOperations(ctx);
const lists = listOperations(ctx);
const bearerOps = ctx.ops.filter((op) => op.security === 'bearer');
const staffOps = ctx.ops.filter((op) => op.security === 'staff');
const apiKeyOnlyOps = ctx.ops.filter((op) => op.security === 'apiKey');
const operatorOps = ctx.ops.filter((op) => op.security === 'operator');

let h: Harness;
let target: Target;
let parties: Parties;
let factory: ResourceFactory;
let markers: string[];
/** Client A's paid (ACTIVE) home policy, its invoice, its approved payment and a claim on it: read-only rows the cases share. */
let paid: TestPolicy & { invoiceId: string; transactionId: string; claimId: string };
let homeProduct: string;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(EXAMPLES_DAY); // the contract's example policies start after it
  target = harnessTarget(h);
  parties = await makeParties(target);
  factory = new ResourceFactory(ctx, target, SEED);
  // A creates one of everything a client can create, so lists have rows of A's to leak.
  for (const op of ctx.ops.filter((o) => o.method === 'POST' && !pathParamNames(o.path).length && answersResourceId(ctx.doc, successSchema(o)))) {
    if (op.security === 'bearer') await factory.create(op, parties.a);
  }
  // What the contract alone cannot make: a policy paid in full (staff's or the provider's doing),
  // so A also has an approved payment with its receipt, and a claim on the policy.
  homeProduct = await onlineProductId(h, 'HOME');
  const policy = await activePolicy(h, parties.a.token, homeProduct);
  const invoiceId = (await h.call({ method: 'GET', url: `/api/v1/client/policies/${policy.id}`, token: parties.a.token })).json().data.invoice.id as string;
  const { id: transactionId } = await h.db.selectFrom('transactions').select('id').where('invoice_id', '=', invoiceId).where('status', '=', 'APPROVED').executeTakeFirstOrThrow();
  paid = { ...policy, invoiceId, transactionId, claimId: await fileClaim(policy) };
  markers = [parties.a.id, parties.a.username, ...factory.created.map((made) => made.id), policy.id, invoiceId, transactionId, paid.claimId];
}, 900_000); // one of every resource, through every create call (slow on a busy 2-core machine)
afterAll(async () => { await h.close(); });

async function fileClaim(policy: TestPolicy): Promise<string> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: parties.a.token, payload: standardClaim(h, policy) });
  if (res.statusCode !== 201) throw new Error(`claim not filed: ${res.statusCode} ${res.body}`);
  return res.json().data.id;
}

async function uploadDocument(): Promise<string> {
  const { payload, headers } = multipart([file('ghana-card.pdf', PDF, 'application/pdf')]);
  const res = await h.call({ method: 'POST', url: '/api/v1/client/documents', payload, headers, token: parties.a.token });
  if (res.statusCode !== 201) throw new Error(`document not uploaded: ${res.statusCode} ${res.body}`);
  const data = res.json().data;
  return (Array.isArray(data) ? data[0] : data).id;
}

/** A new unpaid policy of client A's, from a create body (an example of the contract's): its id and its invoice's. */
async function unpaidPolicy(body: unknown): Promise<{ id: string; invoiceId: string }> {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: parties.a.token, payload: body as object });
  if (res.statusCode !== 201) throw new Error(`policy not created: ${res.statusCode} ${res.body}`);
  return { id: res.json().data.id, invoiceId: res.json().data.invoice?.id };
}

const exampleBody = (entry: IdOperation) => {
  const [valid] = factory.validRequests(entry.op, 1);
  return valid?.body && 'json' in valid.body ? valid.body.json as Record<string, unknown> : undefined;
};

const isPolicyBody = (id: string) => /^create\w*Policy$/.test(id) || /^create\w+Quote$/.test(id) || id === 'addCartItem';

/**
 * Client A's rows for the operations the generated requests cannot reach, made fresh when the
 * call may change them. The others take what the resource factory makes through the contract.
 */
async function seedFor(entry: IdOperation): Promise<Seeded | undefined> {
  const id = entry.op.operationId;
  if (isPolicyBody(id)) {
    // A renewal of A's own policy of the same type: `oldPolicyId` is A's, the product the tenant's.
    const body = exampleBody(entry)!;
    const old = await unpaidPolicy(body);
    const quote = /Quote$/.test(id);
    return {
      bodyFields: { businessType: 'RENEWAL', oldPolicyId: old.id }, owned: [['/client/policies', old.id]],
      // Tenant 2 sells no product of tenant 1's: its client's body is refused on productId, before oldPolicyId is read.
      otherTenant: { status: 400, message: /^body\.productId: no ACTIVE ONLINE product with this id is available$/ },
      // A quote writes nothing and does not echo the old policy: it answers only when the renewal
      // check passed, priced for the example's product.
      named: quote ? [] : [old.id],
      ownerAnswer: quote ? (res) => (res.json().data?.product?.id === body.productId ? undefined : `the quote is not for product ${String(body.productId)}`) : undefined,
    };
  }
  switch (id) {
    case 'createTransaction': {
      const { invoiceId } = await buyHomePolicy(h, parties.a.token, homeProduct);
      return { bodyFields: { invoiceId }, owned: [], named: [invoiceId] };
    }
    case 'getExternalInvoice':
      return { params: { invoiceNoOrId: paid.invoiceId }, owned: [], named: [paid.invoiceId] };
    case 'getInvoice':
      return { params: { id: paid.invoiceId }, owned: [], named: [paid.invoiceId] };
    case 'getTransaction':
      return { params: { id: paid.transactionId }, owned: [], named: [paid.transactionId] };
    case 'downloadReceipt':
      return {
        params: { id: paid.transactionId }, owned: [], named: [],
        ownerAnswer: (res) => (/^application\/pdf/.test(String(res.headers['content-type'])) && /filename="receipt-RCT-\d+\.pdf"/.test(String(res.headers['content-disposition']))
          ? undefined : `not the receipt PDF: ${res.headers['content-type']} ${res.headers['content-disposition']}`),
      };
    case 'createClaim':
      return { body: standardClaim(h, paid), owned: [['/client/policies', paid.id]], named: [paid.id] };
    case 'renewPolicy': {
      // Only a policy in force (or past it) renews: a paid one of A's, fresh, as a renewal uses it up.
      const policy = await activePolicy(h, parties.a.token, homeProduct);
      return { params: { id: policy.id }, owned: [['/client/policies', policy.id]] };
    }
    case 'requestPolicyClosure':
    case 'updatePolicyClosure': {
      // The example names a document: A's own uploaded one, so the owner's call can succeed.
      const policy = await unpaidPolicy(exampleBody(idOps.find((e) => e.op.operationId === 'createPolicy')!)!);
      const documentIds = [await uploadDocument()];
      if (id === 'requestPolicyClosure') return { bodyFields: { policyId: policy.id, documentIds }, owned: [['/client/policies', policy.id]], named: [policy.id] };
      const closure = await h.call({ method: 'POST', url: '/api/v1/client/policies/closure', token: parties.a.token,
        payload: { ...exampleBody(idOps.find((e) => e.op.operationId === 'requestPolicyClosure')!), policyId: policy.id, documentIds } });
      if (closure.statusCode !== 201) throw new Error(`closure not requested: ${closure.statusCode} ${closure.body}`);
      const closureId = closure.json().data.id as string;
      return { params: { id: closureId }, bodyFields: { documentIds }, owned: [['/client/policies/closure', closureId]] };
    }
    case 'listPolicyHistory': {
      // The history's rows are state changes, which do not repeat the policy's id: A sees its creation.
      const policy = await unpaidPolicy(exampleBody(idOps.find((e) => e.op.operationId === 'createPolicy')!)!);
      return { params: { id: policy.id }, owned: [['/client/policies', policy.id]], named: [],
        ownerAnswer: (res) => (res.json().data?.[0]?.to === 'PROCESSING' ? undefined : 'the history does not start with the policy\'s creation') };
    }
    case 'getClaim':
      return { params: { id: paid.claimId }, owned: [['/client/claims', paid.claimId]] };
    case 'deleteClaim': {
      const claimId = await fileClaim(paid);
      return { params: { id: claimId }, owned: [['/client/claims', claimId]] };
    }
    case 'downloadDocument':
    case 'deleteDocument': {
      const documentId = await uploadDocument();
      return {
        params: { id: documentId }, owned: [['/client/documents', documentId]], named: [],
        ownerAnswer: id === 'downloadDocument' ? (res) => (res.rawPayload.equals(PDF) ? undefined : 'the owner did not get the uploaded bytes back') : undefined,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Id-taking operations with no owner to tell apart from the others, so the matrix has nothing to
 * drive; each says why, and which suite checks it. A new operation is driven unless listed here.
 */
const NOT_DRIVEN: Record<string, string> = {
  // The sandbox provider's pages take no Api-Key and no token: the reference in the address is the
  // credential (a payer's browser holds it, as with a hosted checkout link), so there is no owner.
  ...Object.fromEntries(['getSandboxCheckout', 'answerSandboxCheckout', 'getSandboxMobileMoneyPrompt', 'answerSandboxMobileMoneyPrompt'].map((id) => [id,
    'the reference is the credential, no caller to refuse; test/http/payment-provider.test.ts: "answers a 404 page for an unknown reference, and 400 for one not of its form"'])),
  // A company's logo is public branding, not a client's resource: anyone may load it (an <img>).
  getCompanyLogo: 'public branding, anyone may load it; test/http/operator-companies.test.ts: "stores a PNG, JPEG or WebP judged by its bytes, serves it back at the company\'s logo URL, and replaces it"',
  // {provider} names a payment provider, not a resource; the provider's signature admits it.
  receivePaymentWebhook: 'the payment provider calls it, signed, for no client; test/http/payment-provider.test.ts: "refuses a missing, malformed or wrong signature with 401 and changes nothing"',
};

/**
 * Lists of what is no client's: reference data and the tenant's catalogues. They hold no row of A's
 * to leak; the check is that A's key or token opens them (rows answered) and no row of A's shows.
 */
const SHARED_LISTS = new Set(lists.filter((op) => op.security !== 'bearer' || op.owner === 'tenant' || op.operationId === 'listPolicyTypes').map((op) => op.operationId));

describe('operations that take an id (a path parameter or a body field named *Id)', () => {
  if (!idOps.length) {
    it(`none in today's contract; the list operations are checked instead: ${lists.map((op) => op.operationId).join(', ')}`, () => {
      // Cross-check the generator with a plain scan of the contract.
      const pathsWithParams = Object.keys(ctx.doc.paths).filter((path) => path.includes('{'));
      const bodyIdProperties = JSON.stringify(ctx.ops.map((op) => (op.requestBody?.schema ? deref(ctx.doc, op.requestBody.schema) : null)))
        .match(/"[a-z][A-Za-z0-9]*Id":\{/g) ?? [];
      expect({ idOps: idOps.length, pathsWithParams, bodyIdProperties }).toEqual({ idOps: 0, pathsWithParams: [], bodyIdProperties: [] });
    });
  } else {
    const driven = idOps.filter((entry) => !NOT_DRIVEN[entry.op.operationId]);
    it.each(driven.map((entry) => [entry.op.operationId, entry] as const))(
      "%s: client A's resource answers 404 to client B and to tenant 2 (403 to a staff token) and stays unchanged; A itself gets 2xx naming it",
      async (_id, entry) => {
        const result = await checkIdOperation(ctx, target, parties, entry, factory, await seedFor(entry));
        expect({ operation: entry.op.operationId, skipped: result.skipped ?? null }).toEqual({ operation: entry.op.operationId, skipped: null });
        expect(result.findings.map(formatFinding)).toEqual([]);
      },
    );
    // Not driven here, and so reported as skipped, never as passed: why, and where they are covered.
    for (const entry of idOps.filter((e) => NOT_DRIVEN[e.op.operationId])) {
      it.skip(`${entry.op.operationId}: not driven (${NOT_DRIVEN[entry.op.operationId]})`, () => undefined);
    }
  }
});

describe('list operations show no row of client A to client B or to tenant 2, and A sees its own', () => {
  it.each(lists.filter((op) => !SHARED_LISTS.has(op.operationId)).map((op) => [op.operationId, op] as [string, Operation]))(
    "%s: A's answer holds a row of A's; B's, C's and D's hold none",
    async (_id, op) => {
      const result = await checkListIsolation(ctx, target, parties, op, markers, factory);
      expect(result.findings.map(formatFinding)).toEqual([]);
      expect({ status: result.owner?.status, marked: (result.owner?.marked ?? 0) > 0 }).toEqual({ status: 200, marked: true });
    },
  );
  it.each(lists.filter((op) => SHARED_LISTS.has(op.operationId)).map((op) => [op.operationId, op] as [string, Operation]))(
    '%s (reference data or the tenant\'s catalogue, no client\'s rows): A gets rows, and no row of A\'s shows to anyone',
    async (_id, op) => {
      const result = await checkListIsolation(ctx, target, parties, op, markers, factory);
      expect(result.findings.map(formatFinding)).toEqual([]);
      expect({ status: result.owner?.status, rows: (result.owner?.rows ?? 0) > 0 }).toEqual({ status: 200, rows: true });
    },
  );
});

describe("a client's or staff member's token sent with another tenant's Api-Key answers 401", () => {
  it.each(bearerOps.map((op) => [op.operationId, op] as [string, Operation]))('%s', async (_id, op) => {
    const client = await target.newClient(target.apiKey);
    const findings = await checkKeyTokenMismatch(ctx, target, client, op, factory);
    expect(findings.map(formatFinding)).toEqual([]);
  });

  // Staff calls are left out of the matrix above (its parties are clients; tenant 2 has no staff
  // yet): a staff token of tenant 1 with tenant 2's key is checked here, token kinds and the rest
  // in test/http/staff-auth.test.ts.
  it.each(staffOps.map((op) => [op.operationId, op] as [string, Operation]))("%s, with a staff member's token", async (_id, op) => {
    const member = await target.newStaff!();
    const findings = await checkKeyTokenMismatch(ctx, target, member, op, factory);
    expect(findings.map(formatFinding)).toEqual([]);
  });

  it(`Api-Key-only operations (${apiKeyOnlyOps.length}) do not read the token; an unknown key answers 401 for each`, async () => {
    const wrong: string[] = [];
    for (const op of apiKeyOnlyOps) {
      const [valid] = factory.validRequests(op, 1);
      const sent = await send(target, ctx.doc, op, valid, authHeaders(op, 'badKey', target, parties.a));
      if (sent.response.statusCode !== 401) wrong.push(`${op.operationId}: ${sent.response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the platform operator's calls take the Operator-Key and no tenant credential", () => {
  it('are in the contract', () => {
    expect(operatorOps.length).toBeGreaterThan(0);
  });

  it.each(operatorOps.map((op) => [op.operationId, op] as [string, Operation]))(
    "%s: nothing, a wrong Operator-Key, tenant 1's Api-Key with client A's token or with a staff token answer 401; the Operator-Key opens it",
    async (_id, op) => {
      const [valid] = factory.validRequests(op, 1);
      const staff = await target.newStaff!();
      const attempts: Array<[string, Record<string, string>]> = [
        ['no credentials', {}],
        ['a wrong Operator-Key', authHeaders(op, 'badKey', target, parties.a)],
        ["tenant 1's Api-Key and client A's token", authHeaders(op, 'apiKeyInstead', target, parties.a)],
        ["tenant 1's Api-Key and an executive manager's staff token", authHeaders(op, 'apiKeyInstead', target, staff)],
        ["tenant 2's Api-Key and client C's token", authHeaders(op, 'apiKeyInstead', target, parties.c)],
      ];
      const wrong: string[] = [];
      for (const [who, headers] of attempts) {
        const sent = await send(target, ctx.doc, op, valid, headers);
        if (sent.response.statusCode !== 401) wrong.push(`${who}: ${sent.response.statusCode} ${sent.response.body.slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
      const opened = await send(target, ctx.doc, op, valid, authHeaders(op, 'client', target, parties.a));
      expect({ status: opened.response.statusCode, body: opened.response.statusCode === 401 ? opened.response.body : '' }).not.toMatchObject({ status: 401 });
    },
  );
});

describe('the matrix catches a query missing its tenant scope', () => {
  let leaky: FastifyInstance;
  let leakyTarget: Target;
  // Any list answering rows with ids: the planted fault adds client A's account to what tenant 2 sees.
  const victim = lists[0];

  beforeAll(async () => {
    leaky = await buildApp({ config: h.config, db: h.db, clock: h.clock });
    leaky.addHook('onSend', async (request, reply, payload) => {
      const path = request.url.split('?')[0];
      if (path === `/api/v1${victim.path}` && request.headers['api-key'] === h.otherApiKey && reply.statusCode === 200) {
        // What a handler forgetting `TenantScope` would do: another tenant's row in the answer.
        const foreign = await h.db.selectFrom('clients').select(['id', 'email']).where('tenant_id', '=', h.tenantId).where('id', '=', parties.a.id).executeTakeFirstOrThrow();
        const body = JSON.parse(String(payload));
        return JSON.stringify({ ...body, data: [...body.data, { ...body.data[0], id: foreign.id, email: foreign.email }] });
      }
      return payload;
    });
    await leaky.ready();
    leakyTarget = harnessTarget(h, leaky);
  });
  afterAll(async () => { await leaky.close(); });

  it(`reports ${victim?.operationId ?? 'a list'} answering tenant 1's client to tenant 2`, async () => {
    const sound = await checkListIsolation(ctx, target, parties, victim, markers, factory);
    expect(sound.findings).toEqual([]);
    const result = await checkListIsolation(ctx, leakyTarget, parties, victim, markers, factory);
    const text = result.findings.map(formatFinding).join('\n');
    expect(text).toMatch(new RegExp(`${victim.operationId} as client C of tenant 2: row \\d+ holds client A's ${parties.a.id}`));
  });

  it('reports id-taking operations and lists without owner scope (a synthetic contract with /things/{thingId})', async () => {
    const synthetic = fuzzContext(syntheticDoc());
    const run = async (unscoped: boolean) => {
      const server = await syntheticTarget({ unscoped });
      try {
        const who = await makeParties(server);
        const things = new ResourceFactory(synthetic, server, SEED);
        const findings: string[] = [];
        const ops = idTakingOperations(synthetic);
        expect(ops.map((e) => e.op.operationId).sort()).toEqual(['createNote', 'deleteThing', 'getThing', 'renameThing']);
        for (const entry of ops) {
          const result = await checkIdOperation(synthetic, server, who, entry, things);
          expect(result.skipped).toBeUndefined();
          findings.push(...result.findings.map(formatFinding));
        }
        const owned = [who.a.id, ...things.created.map((made) => made.id)];
        for (const op of listOperations(synthetic)) findings.push(...(await checkListIsolation(synthetic, server, who, op, owned, things)).findings.map(formatFinding));
        return findings.join('\n');
      } finally { await server.close(); }
    };
    expect(await run(false)).toBe('');
    const leaks = await run(true);
    for (const pattern of [
      /getThing as client B of the same tenant: answered 200/, /getThing as client C of tenant 2: answered 200/,
      /renameThing as client C of tenant 2: answered 200/, /deleteThing as client B of the same tenant: answered 200/,
      /client A's resource \S+ changed/, /createNote as client C of tenant 2: answered 201/,
      /listThings as client C of tenant 2: row \d+ holds client A's/,
    ]) expect(leaks).toMatch(pattern);
  });
});
