/**
 * The company's book: policies (filters, detail, state history, moves), clients (create, list,
 * detail) and products (create, assign to another company), within the signed-in member's reach.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { newIdempotencyKey, unwrap, unwrapPage, type Schemas } from '../api';
import { useConsole } from '../context';
import { PolicyCells, PolicyFacts, PolicyHistory } from '../objects';
import { href, navigate, type Route } from '../router';
import { Badge, Decision, Done, ErrorBox, Facts, Field, Money, PagedTable, ScreenHeading, Spinner, When } from '../ui';

type Policy = Schemas['Policy'];
type PolicyState = Schemas['PolicyState'];
const STATES: PolicyState[] = ['DRAFT', 'PROCESSING', 'AWAITING_DEBIT', 'ACTIVE', 'INACTIVE', 'UNDER_WRITER', 'ACCOUNT_RECEIVABLE', 'CREDIT_CONTROL', 'COMPLETE', 'DECLINED', 'EXPIRED', 'CANCELLED', 'ARCHIVED'];
/** The states a staff member may move a policy to (POST /staff/policies/{id}/state); the API says which moves the state machine allows. */
const STAFF_MOVES = ['UNDER_WRITER', 'ACCOUNT_RECEIVABLE', 'CREDIT_CONTROL', 'PROCESSING', 'ACTIVE', 'INACTIVE', 'DECLINED', 'COMPLETE', 'ARCHIVED'] as const;

export function Policies({ route }: { route: Route }): ReactNode {
  const { api, baseUrl } = useConsole();
  const filters = { state: route.query.get('state') ?? '', policyNo: route.query.get('policyNo') ?? '', clientName: route.query.get('clientName') ?? '', clientId: route.query.get('clientId') ?? '' };
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const query = new URLSearchParams();
    for (const name of ['state', 'policyNo', 'clientName', 'clientId']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) query.set(name, value);
    }
    navigate(`${href('policies')}${query.size ? `?${query}` : ''}`);
  };
  const query = {
    limit: 20,
    ...(filters.state ? { state: filters.state as PolicyState } : {}),
    ...(filters.policyNo ? { policyNo: filters.policyNo } : {}),
    ...(filters.clientName ? { clientName: filters.clientName } : {}),
    ...(filters.clientId ? { clientId: filters.clientId } : {}),
  };
  return (
    <>
      <ScreenHeading>Policies</ScreenHeading>
      <form className="console__filters" onSubmit={apply} aria-label="Filter the policies">
        <Field label="State">{(id) => (
          <select id={id} name="state" defaultValue={filters.state}>
            <option value="">Any</option>
            {STATES.map((state) => <option key={state} value={state}>{state}</option>)}
          </select>
        )}</Field>
        <Field label="Policy number">{(id) => <input id={id} name="policyNo" defaultValue={filters.policyNo} maxLength={60} />}</Field>
        <Field label="Client name">{(id) => <input id={id} name="clientName" defaultValue={filters.clientName} maxLength={100} />}</Field>
        <input type="hidden" name="clientId" value={filters.clientId} />
        <div className="console__actions"><button type="submit" className="button button--secondary button--sm">Filter</button></div>
      </form>
      <PagedTable<Policy>
        queryKey={[baseUrl, 'staff', 'policies', filters]}
        caption="Policies"
        empty="No policy matches."
        columns={['Policy', 'Client', 'Product', 'State', 'Premium', 'Cover']}
        fetchPage={(page) => unwrapPage(api.GET('/staff/policies', { params: { query: { ...query, after: page.after } } }))}
        row={(policy) => <PolicyCells policy={policy} withClient={true} />}
      />
    </>
  );
}

export function PolicyDetail({ id }: { id: string }): ReactNode {
  const { api, baseUrl, can, showRefused } = useConsole();
  const key = [baseUrl, 'staff', 'policies'];
  const policy = useQuery({ queryKey: [...key, id], queryFn: async () => (await unwrap(api.GET('/staff/policies/{id}', { params: { path: { id } } }))).data });
  const history = useQuery({
    queryKey: [...key, id, 'history', policy.data?.state],
    enabled: !!policy.data,
    queryFn: async () => (await unwrap(api.GET('/staff/policies/{id}/history', { params: { path: { id } } }))).data,
  });
  const [to, setTo] = useState<(typeof STAFF_MOVES)[number]>('UNDER_WRITER');
  if (policy.isPending) return <Spinner label="Loading the policy…" />;
  if (policy.isError) return <ErrorBox error={policy.error} onRetry={() => policy.refetch()} />;
  return (
    <>
      <ScreenHeading>Policy {policy.data.policyNo}</ScreenHeading>
      <PolicyFacts policy={policy.data} />
      <p><a href={href('clients', policy.data.client.id)}>The client, {policy.data.client.fullName}</a></p>
      {(can('movePolicyState') || showRefused) && (
        <section aria-labelledby="console-policy-move" className="console__decisions">
          <h3 id="console-policy-move">Move the policy</h3>
          <Field label="To">{(fieldId) => (
            <select id={fieldId} value={to} onChange={(event) => setTo(event.target.value as typeof to)}>
              {STAFF_MOVES.filter((state) => state !== policy.data.state).map((state) => <option key={state} value={state}>{state}</option>)}
            </select>
          )}</Field>
          <Decision operationId="movePolicyState" label={`Move to ${to}`} text={{ label: 'Why', required: true }} invalidates={[key]}
            submit={(notes) => unwrap(api.POST('/staff/policies/{id}/state', { params: { path: { id } }, body: { state: to, notes } }))} />
        </section>
      )}
      {history.isError && <ErrorBox error={history.error} onRetry={() => history.refetch()} />}
      {history.data && <PolicyHistory history={history.data} />}
    </>
  );
}

type StaffClient = Schemas['StaffClient'];

export function Clients({ route }: { route: Route }): ReactNode {
  const { api, baseUrl, can } = useConsole();
  const search = route.query.get('search') ?? '';
  return (
    <>
      <ScreenHeading>Clients</ScreenHeading>
      {can('createStaffClient') && <p><a className="button button--primary button--sm" href={href('clients', 'new')}>Open a client account</a></p>}
      <form className="console__filters" aria-label="Search the clients" onSubmit={(event) => {
        event.preventDefault();
        const value = String(new FormData(event.currentTarget).get('search') ?? '').trim();
        navigate(value ? `${href('clients')}?search=${encodeURIComponent(value)}` : href('clients'));
      }}>
        <Field label="Name, e-mail or phone">{(id) => <input id={id} name="search" type="search" defaultValue={search} maxLength={100} />}</Field>
        <div className="console__actions"><button type="submit" className="button button--secondary button--sm">Search</button></div>
      </form>
      <PagedTable<StaffClient>
        queryKey={[baseUrl, 'staff', 'clients', search]}
        caption="Clients"
        empty="No client matches."
        columns={['Client', 'Type', 'E-mail', 'Phone', 'Active']}
        fetchPage={(page) => unwrap(api.GET('/staff/clients', { params: { query: { limit: 20, after: page.after, ...(search ? { search } : {}) } } }))}
        row={(client) => (
          <>
            <td><a href={href('clients', client.id)}>{client.fullName}</a></td>
            <td>{client.type}</td>
            <td>{client.email ?? '—'}</td>
            <td>{client.phoneNumber ?? '—'}</td>
            <td>{client.isActive ? 'Yes' : 'No'}</td>
          </>
        )}
      />
    </>
  );
}

export function NewClient(): ReactNode {
  const { api, baseUrl } = useConsole();
  const queryClient = useQueryClient();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const create = useMutation({
    mutationFn: async (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      const phoneNumber = text('phoneNumber');
      return (await unwrap(api.POST('/staff/clients', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: { type: 'INDIVIDUAL', firstName: text('firstName'), lastName: text('lastName'), email: text('email'), ...(phoneNumber ? { phoneNumber } : {}), country: text('country').toUpperCase(), groups: [] },
      }))).data;
    },
    onSuccess: async (client) => {
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'staff', 'clients'] });
      navigate(href('clients', client.id));
    },
  });
  return (
    <>
      <ScreenHeading>Open a client account</ScreenHeading>
      <p>The client sets their own password from the set-up code the API sends them; staff never choose it.</p>
      <form className="console__grid-form" aria-label="The new client" onSubmit={(event) => { event.preventDefault(); create.mutate(new FormData(event.currentTarget)); }}>
        <Field label="First name">{(id) => <input id={id} name="firstName" required maxLength={100} />}</Field>
        <Field label="Last name">{(id) => <input id={id} name="lastName" required maxLength={100} />}</Field>
        <Field label="E-mail">{(id) => <input id={id} name="email" type="email" required maxLength={254} />}</Field>
        <Field label="Phone number" hint="International form, e.g. +233241234567">{(id, hint) => <input id={id} name="phoneNumber" type="tel" pattern="\+?[0-9]{10,15}" aria-describedby={hint} />}</Field>
        <Field label="Country (ISO code)">{(id) => <input id={id} name="country" required defaultValue="GH" pattern="[A-Za-z]{2}" maxLength={2} />}</Field>
        <div className="console__actions"><button type="submit" className="button button--primary" disabled={create.isPending}>Open the account</button></div>
        {create.isError && <ErrorBox error={create.error} />}
      </form>
    </>
  );
}

export function ClientDetail({ id }: { id: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const client = useQuery({ queryKey: [baseUrl, 'staff', 'clients', id], queryFn: async () => (await unwrap(api.GET('/staff/clients/{id}', { params: { path: { id } } }))).data });
  if (client.isPending) return <Spinner label="Loading the client…" />;
  if (client.isError) return <ErrorBox error={client.error} onRetry={() => client.refetch()} />;
  const c = client.data;
  return (
    <>
      <ScreenHeading>{c.fullName}</ScreenHeading>
      <Facts items={[
        ['Type', c.type], ['E-mail', c.email ?? '—'], ['Phone', c.phoneNumber ?? '—'], ['Country', c.country],
        ['Active', c.isActive ? 'Yes' : 'No'], ['Client since', <When key="since" at={c.createdAt} />],
      ]} />
      <p><a href={`${href('policies')}?clientId=${encodeURIComponent(c.id)}`}>Their policies</a></p>
    </>
  );
}

type Product = Schemas['Product'];
const CATEGORIES: Schemas['PolicyType'][] = ['AUTO', 'HOME', 'BURGLARY', 'MARINE', 'LIFE', 'FIRE_AND_ALLIED_PERILS', 'PUBLIC_LIABILITY', 'PROFESSIONAL_INDEMNITY', 'TRAVEL', 'HEALTH'];

export function Products(): ReactNode {
  const { api, baseUrl, can } = useConsole();
  const key = [baseUrl, 'staff', 'products'];
  return (
    <>
      <ScreenHeading>Products</ScreenHeading>
      {can('createStaffProduct') && <NewProduct />}
      <PagedTable<Product>
        queryKey={key}
        caption="Products"
        empty="The company has no product."
        columns={['Product', 'Code', 'Kind', 'Insurer', 'Status', 'Assign']}
        fetchPage={(page) => unwrap(api.GET('/staff/products', { params: { query: { limit: 20, page: page.page } } }))}
        row={(product) => (
          <>
            <td>{product.name}</td>
            <td><code>{product.code}</code></td>
            <td>{product.category}</td>
            <td>{product.insurer.name}</td>
            <td><Badge value={product.status} /></td>
            <td>
              <Decision operationId="assignStaffProduct" label={`Assign ${product.code} to a company`} text={{ label: 'Company id', required: true }} invalidates={[key]}
                submit={(companyId) => unwrap(api.POST('/staff/products/{id}/assignments', { params: { path: { id: product.id }, header: { 'Idempotency-Key': newIdempotencyKey() } }, body: { companyId } }))} />
            </td>
          </>
        )}
      />
    </>
  );
}

function NewProduct(): ReactNode {
  const { api, baseUrl } = useConsole();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const create = useMutation({
    mutationFn: async (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      return (await unwrap(api.POST('/staff/products', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: { name: text('name'), code: text('code'), category: text('category') as Schemas['PolicyType'], distribution: text('distribution') as 'ONLINE' | 'OFFLINE', status: 'ACTIVE', description: text('description') || null },
      }))).data;
    },
    onSuccess: async () => {
      setIdempotencyKey(newIdempotencyKey());
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'staff', 'products'] });
    },
  });
  if (!open) return <p><button type="button" className="button button--primary button--sm" onClick={() => setOpen(true)}>Create a product</button>{create.isSuccess && <Done>The product is created.</Done>}</p>;
  return (
    <form className="console__grid-form" aria-label="The new product" onSubmit={(event) => { event.preventDefault(); create.mutate(new FormData(event.currentTarget)); }}>
      <Field label="Name">{(id) => <input id={id} name="name" required maxLength={200} autoFocus />}</Field>
      <Field label="Code">{(id) => <input id={id} name="code" required maxLength={60} pattern="[A-Za-z0-9_\-]+" />}</Field>
      <Field label="Kind">{(id) => <select id={id} name="category">{CATEGORIES.map((category) => <option key={category}>{category}</option>)}</select>}</Field>
      <Field label="Sold">{(id) => <select id={id} name="distribution"><option value="ONLINE">Online, to clients</option><option value="OFFLINE">By staff only</option></select>}</Field>
      <Field label="Description">{(id) => <input id={id} name="description" maxLength={2000} />}</Field>
      <div className="console__actions">
        <button type="submit" className="button button--primary button--sm" disabled={create.isPending}>Create</button>
        <button type="button" className="button button--link button--sm" onClick={() => { setOpen(false); create.reset(); }}>Cancel</button>
      </div>
      {create.isError && <ErrorBox error={create.error} />}
    </form>
  );
}
