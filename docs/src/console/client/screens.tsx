/**
 * The client's side of the console: products, a motor quote with its itemised tariff, buying,
 * paying (sandbox checkout, mobile money or cash at a branch), the policy becoming active, the
 * receipt, and a claim followed through its stages.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { moneyOf, newIdempotencyKey, unwrap, unwrapPage, type Schemas } from '../api';
import { useConsole } from '../context';
import { ClaimFacts, ClaimHistory, PolicyCells, PolicyFacts, PolicyHistory, yearFromToday } from '../objects';
import { href, navigate, type Route } from '../router';
import { Badge, Done, ErrorBox, Field, Money, PagedTable, ScreenHeading, Spinner, When } from '../ui';
import type { NavItem } from '../Console';

export const CLIENT_NAV: NavItem[] = [
  { path: 'products', label: 'Products' },
  { path: 'policies', label: 'My policies' },
  { path: 'claims', label: 'My claims' },
];

export function ClientScreens({ route }: { route: Route }): ReactNode {
  const [screen, id, action] = route.segments;
  if (screen === 'buy' && id) return <BuyAuto productId={id} />;
  if (screen === 'policies' && id && action === 'claim') return <FileClaim policyId={id} />;
  if (screen === 'policies' && id) return <PolicyDetail id={id} />;
  if (screen === 'policies') return <Policies />;
  if (screen === 'claims' && id) return <ClaimDetail id={id} />;
  if (screen === 'claims') return <Claims />;
  return <Products />;
}

type Product = Schemas['Product'];

function Products(): ReactNode {
  const { api, baseUrl } = useConsole();
  return (
    <>
      <ScreenHeading>Products you can buy</ScreenHeading>
      <p>The console buys motor cover (AUTO); every other kind is bought through its own call (see the API reference).</p>
      <PagedTable<Product>
        queryKey={[baseUrl, 'client', 'products']}
        caption="Products"
        empty="No product is on sale to you."
        columns={['Product', 'Kind', 'Insurer', '']}
        fetchPage={(page) => unwrap(api.GET('/client/products', { params: { query: { limit: 20, distribution: 'ONLINE', page: page.page } } }))}
        row={(product) => (
          <>
            <td>{product.name}</td>
            <td><Badge value={product.category} /></td>
            <td>{product.insurer.name}</td>
            <td>{product.category === 'AUTO' && <a className="button button--primary button--sm" href={href('buy', product.id)}>Quote and buy<span className="sr-only"> {product.name}</span></a>}</td>
          </>
        )}
      />
    </>
  );
}

type AutoQuote = Schemas['QuoteResponse']['data'];

/** The motor form: a vehicle, its cover and its term; quoted first (nothing written), then bought at that price. */
function BuyAuto({ productId }: { productId: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const queryClient = useQueryClient();
  const [quote, setQuote] = useState<{ body: AutoBody; answer: AutoQuote }>();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const product = useQuery({ queryKey: [baseUrl, 'client', 'product', productId], queryFn: async () => (await unwrap(api.GET('/client/products/{id}', { params: { path: { id: productId } } }))).data });
  const quoting = useMutation({
    mutationFn: async (body: AutoBody) => ({ body, answer: (await unwrap(api.POST('/client/quotes/auto', { body }))).data }),
    onSuccess: setQuote,
  });
  const buying = useMutation({
    mutationFn: async (body: AutoBody) => (await unwrap(api.POST('/client/policies/auto', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } }))).data,
    onSuccess: async (policy) => {
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'client', 'policies'] });
      navigate(href('policies', policy.id));
    },
  });
  const term = yearFromToday();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const whole = (name: string) => Number.parseInt(text(name), 10);
    quoting.mutate({
      policyType: 'AUTO', productId, businessType: 'NEW_BUSINESS', currency: 'GHS', exchangeRate: 1, generateInvoice: true,
      startDate: text('startDate'), endDate: text('endDate'),
      assets: [{
        coverage: text('coverage') as AutoAsset['coverage'], riskType: 'PRIVATE_INDIVIDUAL', registrationStatus: 'REGISTERED', usage: 'PRIVATE',
        make: text('make'), model: text('model'), colour: text('colour'), registrationNo: text('registrationNo'), chassisNumber: text('chassisNumber'),
        cubicCapacity: whole('cubicCapacity'), seats: whole('seats'), bodyType: 'SALOON', sumInsured: moneyOf(text('sumInsured')),
        noClaimDiscountYears: whole('noClaimDiscountYears'), yearOfMake: whole('yearOfMake'), policyExcess: whole('policyExcess'),
        // The contract's defaults, sent as they are: the excess applies, third-party property damage to 5000.
        applyExcess: true, thirdPartyPropertyDamage: 5000,
      }],
    });
  };

  if (product.isPending) return <Spinner label="Loading the product…" />;
  if (product.isError) return <ErrorBox error={product.error} onRetry={() => product.refetch()} />;
  return (
    <>
      <ScreenHeading>Buy {product.data.name}</ScreenHeading>
      <form className="console__grid-form" onSubmit={submit} aria-label="The vehicle and its cover" onChange={() => setQuote(undefined)}>
        <Field label="Cover">{(id) => (
          <select id={id} name="coverage" defaultValue="COMPREHENSIVE">
            <option value="COMPREHENSIVE">Comprehensive</option>
            <option value="THIRD_PARTY_FIRE_AND_THEFT">Third party, fire and theft</option>
            <option value="THIRD_PARTY">Third party only</option>
          </select>
        )}</Field>
        <Field label="Make">{(id) => <input id={id} name="make" required defaultValue="Toyota" maxLength={60} />}</Field>
        <Field label="Model">{(id) => <input id={id} name="model" required defaultValue="Corolla" maxLength={60} />}</Field>
        <Field label="Colour">{(id) => <input id={id} name="colour" required defaultValue="Silver" maxLength={40} />}</Field>
        <Field label="Registration number">{(id) => <input id={id} name="registrationNo" required defaultValue="GR 1234-24" maxLength={20} />}</Field>
        <Field label="Chassis number">{(id) => <input id={id} name="chassisNumber" required defaultValue="JTDBR32E720123456" maxLength={40} />}</Field>
        <Field label="Year of make">{(id) => <input id={id} name="yearOfMake" required type="number" min={1950} max={new Date().getUTCFullYear() + 1} defaultValue={2019} />}</Field>
        <Field label="Engine size (cc)">{(id) => <input id={id} name="cubicCapacity" required type="number" min={50} max={20000} defaultValue={1800} />}</Field>
        <Field label="Seats">{(id) => <input id={id} name="seats" required type="number" min={1} max={100} defaultValue={5} />}</Field>
        <Field label="Sum insured (GHS)" hint="The vehicle's value">{(id, hint) => <input id={id} name="sumInsured" required inputMode="decimal" pattern="\d{1,13}(\.\d{1,2})?" defaultValue="85000" aria-describedby={hint} />}</Field>
        <Field label="No-claim years">{(id) => <input id={id} name="noClaimDiscountYears" required type="number" min={0} max={50} defaultValue={2} />}</Field>
        <Field label="Excess (%)" hint="What you bear of each own-damage claim">{(id, hint) => <input id={id} name="policyExcess" required type="number" min={0} max={100} defaultValue={10} aria-describedby={hint} />}</Field>
        <Field label="Cover starts" hint="Today at the earliest (UTC)">{(id, hint) => <input id={id} name="startDate" type="date" required defaultValue={term.startDate} min={term.startDate} aria-describedby={hint} />}</Field>
        <Field label="Cover ends">{(id) => <input id={id} name="endDate" type="date" required defaultValue={term.endDate} />}</Field>
        <div className="console__actions">
          <button type="submit" className="button button--primary" disabled={quoting.isPending}>Get a quote</button>
        </div>
      </form>
      {quoting.isPending && <Spinner label="Pricing…" />}
      {quoting.isError && <ErrorBox error={quoting.error} />}
      {quote && (
        <section aria-labelledby="console-quote">
          <h3 id="console-quote">Your quote: <Money amount={quote.answer.premium} currency={quote.answer.currency} /></h3>
          <table className="console__table">
            <caption>How the premium is worked out</caption>
            <thead><tr><th scope="col">Item</th><th scope="col" className="console__number">Amount</th></tr></thead>
            <tbody>
              {quote.answer.premiumBreakdown.lines.map((line, index) => (
                <tr key={index}><td>{line.label}</td><td className="console__number"><Money amount={line.amount} currency={quote.answer.currency} /></td></tr>
              ))}
              <tr><th scope="row">Premium for {quote.answer.termDays} days</th><td className="console__number"><strong><Money amount={quote.answer.premium} currency={quote.answer.currency} /></strong></td></tr>
            </tbody>
          </table>
          <button type="button" className="button button--primary" disabled={buying.isPending} onClick={() => buying.mutate(quote.body)}>
            Buy at <Money amount={quote.answer.premium} currency={quote.answer.currency} />
          </button>
          {buying.isPending && <Spinner label="Buying…" />}
          {buying.isError && <ErrorBox error={buying.error} />}
        </section>
      )}
    </>
  );
}

type AutoBody = Schemas['AutoPolicyCreate'];
type AutoAsset = AutoBody['assets'][number];
type Transaction = Schemas['Transaction'];
const PENDING = ['PENDING_PAYMENT', 'PENDING_APPROVAL', 'PENDING_VERIFICATION'];

function Policies(): ReactNode {
  const { api, baseUrl } = useConsole();
  return (
    <>
      <ScreenHeading>My policies</ScreenHeading>
      <PagedTable<Schemas['Policy']>
        queryKey={[baseUrl, 'client', 'policies']}
        caption="Policies"
        empty="You have no policy yet: buy one from Products."
        columns={['Policy', 'Product', 'State', 'Premium', 'Cover']}
        fetchPage={(page) => unwrapPage(api.GET('/client/policies', { params: { query: { limit: 20, after: page.after } } }))}
        row={(policy) => <PolicyCells policy={policy} withClient={false} />}
      />
    </>
  );
}

function PolicyDetail({ id }: { id: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const payments = useQuery({
    queryKey: [baseUrl, 'client', 'policies', id, 'payments'],
    queryFn: () => unwrapPage(api.GET('/client/transactions', { params: { query: { policyId: id, limit: 50 } } })),
    // While a payment waits for the payer, the provider or staff, look again every two seconds.
    refetchInterval: (query) => query.state.data?.data.some((payment) => PENDING.includes(payment.status)) ? 2_000 : false,
  });
  const waiting = payments.data?.data.some((payment) => PENDING.includes(payment.status)) ?? false;
  const policy = useQuery({
    queryKey: [baseUrl, 'client', 'policies', id],
    queryFn: async () => (await unwrap(api.GET('/client/policies/{id}', { params: { path: { id } } }))).data,
    refetchInterval: waiting ? 2_000 : false,
  });
  // When the last pending payment settles, the policy has moved on (paid, active): read it again.
  const queryClient = useQueryClient();
  const wasWaiting = useRef(waiting);
  useEffect(() => {
    if (wasWaiting.current && !waiting) void queryClient.invalidateQueries({ queryKey: [baseUrl, 'client', 'policies', id], exact: true });
    wasWaiting.current = waiting;
  }, [waiting, queryClient, baseUrl, id]);
  const history = useQuery({
    queryKey: [baseUrl, 'client', 'policies', id, 'history', policy.data?.state],
    enabled: !!policy.data,
    queryFn: async () => (await unwrap(api.GET('/client/policies/{id}/history', { params: { path: { id } } }))).data,
  });
  if (policy.isPending) return <Spinner label="Loading the policy…" />;
  if (policy.isError) return <ErrorBox error={policy.error} onRetry={() => policy.refetch()} />;
  const current = policy.data;
  return (
    <>
      <ScreenHeading>Policy {current.policyNo}</ScreenHeading>
      <PolicyFacts policy={current} />
      {current.state === 'ACTIVE' && <p><a className="button button--secondary button--sm" href={href('policies', id, 'claim')}>File a claim</a></p>}
      <section aria-labelledby="console-payments">
        <h3 id="console-payments">Payments</h3>
        {payments.isPending && <Spinner label="Loading the payments…" />}
        {payments.isError && <ErrorBox error={payments.error} onRetry={() => payments.refetch()} />}
        {payments.data && payments.data.data.length > 0 && <PaymentList payments={payments.data.data} />}
        {payments.data && !current.isPaid && !waiting && current.invoice && <Pay invoiceId={current.invoice.id} policyId={id} />}
      </section>
      {history.data && <PolicyHistory history={history.data} />}
    </>
  );
}

function PaymentList({ payments }: { payments: Transaction[] }): ReactNode {
  return (
    <ul className="console__payments">
      {payments.map((payment) => (
        <li key={payment.id} data-id={payment.id}>
          {payment.transactionNo}: <Money amount={payment.amount} currency={payment.currency} /> by {payment.paymentMethod}, <Badge value={payment.status} />
          {payment.status === 'PENDING_PAYMENT' && payment.nextAction?.url && (
            <> <a className="button button--primary button--sm" href={payment.nextAction.url} target="_blank" rel="noopener noreferrer">Open the sandbox checkout<span className="sr-only"> (opens a new tab)</span></a>
              {payment.nextAction.expiresAt && <> until <When at={payment.nextAction.expiresAt} /></>}</>
          )}
          {payment.status === 'PENDING_VERIFICATION' && payment.nextAction?.url && (
            <> <a className="button button--primary button--sm" href={payment.nextAction.url} target="_blank" rel="noopener noreferrer">Approve on your phone (sandbox)<span className="sr-only"> (opens a new tab)</span></a></>
          )}
          {payment.status === 'PENDING_APPROVAL' && <> (waiting for a branch to confirm the cash)</>}
          {(payment.status === 'APPROVED' || payment.status === 'VERIFIED') && <> <Receipt payment={payment} /></>}
        </li>
      ))}
    </ul>
  );
}

/** The receipt is a PDF behind the bearer token: fetched as a blob and handed to the browser as a download. */
function Receipt({ payment }: { payment: Transaction }): ReactNode {
  const { api } = useConsole();
  const download = useMutation({
    mutationFn: async () => {
      const { data, error } = await api.GET('/client/transactions/{id}/receipt.pdf', { params: { path: { id: payment.id } }, parseAs: 'blob' });
      if (error !== undefined || !data) throw error;
      const url = URL.createObjectURL(data as Blob);
      const link = Object.assign(document.createElement('a'), { href: url, download: `receipt-${payment.receiptNo ?? payment.transactionNo}.pdf` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  return (
    <>
      <button type="button" className="button button--secondary button--sm" onClick={() => download.mutate()} disabled={download.isPending}>
        Download the receipt<span className="sr-only"> for {payment.transactionNo}</span>
      </button>
      {download.isError && <ErrorBox error={download.error} />}
    </>
  );
}

function Pay({ invoiceId, policyId }: { invoiceId: string; policyId: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<'ONLINE' | 'MOBILE_MONEY' | 'CASH'>('ONLINE');
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const pay = useMutation({
    mutationFn: async (mobileNumber?: string) => (await unwrap(api.POST('/client/transactions', {
      body: { invoiceId, paymentMethod: method, ...(mobileNumber ? { mobileNumber } : {}) },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }))).data,
    onSuccess: async () => {
      setIdempotencyKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'client', 'policies', policyId] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    pay.mutate(method === 'MOBILE_MONEY' ? String(new FormData(event.currentTarget).get('mobileNumber') ?? '') : undefined);
  };
  return (
    <form className="console__grid-form" onSubmit={submit} aria-label="Pay the premium">
      <fieldset className="console__fieldset">
        <legend>How you pay what is left of the invoice</legend>
        {([['ONLINE', 'By card, in the sandbox checkout'], ['MOBILE_MONEY', 'By mobile money'], ['CASH', 'In cash at a branch (staff confirm it)']] as const).map(([value, label]) => (
          <label key={value} className="console__choice">
            <input type="radio" name="method" value={value} checked={method === value} onChange={() => setMethod(value)} /> {label}
          </label>
        ))}
      </fieldset>
      {method === 'MOBILE_MONEY' && (
        <Field label="Mobile money number">{(id) => <input id={id} name="mobileNumber" required pattern="\+?[0-9]{10,15}" inputMode="tel" autoComplete="tel" />}</Field>
      )}
      <div className="console__actions">
        <button type="submit" className="button button--primary" disabled={pay.isPending}>Pay</button>
      </div>
      {pay.isError && <ErrorBox error={pay.error} />}
    </form>
  );
}

/** A claim on one of the policy's assets: what happened, when and where, and what the client estimates it cost. */
function FileClaim({ policyId }: { policyId: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const queryClient = useQueryClient();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const policy = useQuery({
    queryKey: [baseUrl, 'client', 'policies', policyId],
    queryFn: async () => (await unwrap(api.GET('/client/policies/{id}', { params: { path: { id: policyId } } }))).data,
  });
  const file = useMutation({
    mutationFn: async (body: Schemas['ClaimCreate']) =>
      (await unwrap(api.POST('/client/claims', { body, params: { header: { 'Idempotency-Key': idempotencyKey } } }))).data,
    onSuccess: async (claim) => {
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'client', 'claims'] });
      navigate(href('claims', claim.id));
    },
  });
  if (policy.isPending) return <Spinner label="Loading the policy…" />;
  if (policy.isError) return <ErrorBox error={policy.error} onRetry={() => policy.refetch()} />;
  const assets = policy.data.assets ?? [];
  const today = new Date().toISOString().slice(0, 10);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    file.mutate({
      policyId, dateOfLoss: text('dateOfLoss'), incidentLocation: text('incidentLocation'), lossCategory: text('lossCategory') as Schemas['LossCategory'],
      assets: form.getAll('assets').map(String), estimatedLossAmount: moneyOf(text('amount')), description: text('description'),
    });
  };
  return (
    <>
      <ScreenHeading>File a claim on {policy.data.policyNo}</ScreenHeading>
      <form className="console__grid-form" onSubmit={submit} aria-label="The claim">
        <Field label="What happened">{(id) => <textarea id={id} name="description" required maxLength={2000} rows={3} />}</Field>
        <Field label="When it happened">{(id) => <input id={id} name="dateOfLoss" type="date" required defaultValue={today} min={policy.data.startDate} max={today} />}</Field>
        <Field label="Where it happened">{(id) => <input id={id} name="incidentLocation" required maxLength={500} />}</Field>
        <Field label="Kind of loss">{(id) => (
          <select id={id} name="lossCategory" defaultValue="MEDICALS">
            <option value="MEDICALS">Medical costs</option><option value="CANCELLATION">Cancellation</option>
            <option value="DELAY">Delay</option><option value="LOSS_OF_BAGGAGE">Loss of baggage</option>
          </select>
        )}</Field>
        <fieldset className="console__fieldset">
          <legend>What was damaged or lost</legend>
          {assets.map((asset, index) => (
            <label key={asset.id} className="console__choice">
              <input type="checkbox" name="assets" value={asset.id} defaultChecked={index === 0} /> {assetName(asset, index)}
            </label>
          ))}
        </fieldset>
        <Field label="Estimated loss (in the policy's currency)">{(id) => <input id={id} name="amount" required inputMode="decimal" pattern="\d{1,13}(\.\d{1,2})?" />}</Field>
        <div className="console__actions">
          <button type="submit" className="button button--primary" disabled={file.isPending}>File the claim</button>
        </div>
        {file.isError && <ErrorBox error={file.error} />}
      </form>
    </>
  );
}

/** An asset as its owner knows it: a vehicle by its registration, anything else by its description. */
function assetName(asset: Schemas['PolicyAsset'], index: number): string {
  const named = asset.registrationNo ?? asset.description ?? asset.make;
  return typeof named === 'string' && named ? named : `Asset ${index + 1}`;
}

function Claims(): ReactNode {
  const { api, baseUrl } = useConsole();
  return (
    <>
      <ScreenHeading>My claims</ScreenHeading>
      <PagedTable<Schemas['Claim']>
        queryKey={[baseUrl, 'client', 'claims']}
        caption="Claims"
        empty="You have filed no claim."
        columns={['Claim', 'Policy', 'Stage', 'Status', 'Estimated loss']}
        fetchPage={(page) => unwrap(api.GET('/client/claims', { params: { query: { limit: 20, after: page.after } } }))}
        row={(claim) => (
          <>
            <td><a href={href('claims', claim.id)}>{claim.claimNo}</a></td>
            <td>{claim.policy.policyNo}</td>
            <td><Badge value={claim.stage} /></td>
            <td><Badge value={claim.status} /></td>
            <td><Money amount={claim.estimatedLossAmount} currency={claim.currency} /></td>
          </>
        )}
      />
    </>
  );
}

function ClaimDetail({ id }: { id: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const claim = useQuery({
    queryKey: [baseUrl, 'client', 'claims', id],
    queryFn: async () => (await unwrap(api.GET('/client/claims/{id}', { params: { path: { id } } }))).data,
    // A claim moves on the insurer's side: look again every five seconds while it is open.
    refetchInterval: (query) => query.state.data?.status === 'ACTIVE' ? 5_000 : false,
  });
  if (claim.isPending) return <Spinner label="Loading the claim…" />;
  if (claim.isError) return <ErrorBox error={claim.error} onRetry={() => claim.refetch()} />;
  return (
    <>
      <ScreenHeading>Claim {claim.data.claimNo}</ScreenHeading>
      {claim.data.meta.stageHistory.length <= 1 && claim.data.status === 'ACTIVE' && <Done>Your claim is filed; the insurer reviews it next.</Done>}
      <ClaimFacts claim={claim.data} />
      <ClaimHistory claim={claim.data} />
    </>
  );
}
