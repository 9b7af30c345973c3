/**
 * The back office's queues: payments waiting for a branch's confirmation, open claims (review,
 * move, settle, close) and closure requests. Each action is offered by the permission table's row
 * for its operation; what the API refuses (a limit, a second pair of eyes) is shown as it says it.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { moneyOf, newIdempotencyKey, unwrap, unwrapPage, type Schemas } from '../api';
import { useConsole } from '../context';
import { ClaimFacts, ClaimHistory } from '../objects';
import { href } from '../router';
import { Badge, Decision, ErrorBox, Field, Money, PagedTable, ScreenHeading, Spinner, When } from '../ui';

type Transaction = Schemas['Transaction'];
type Claim = Schemas['Claim'];
type Closure = Schemas['PolicyClosure'];

export function Payments(): ReactNode {
  const { api, baseUrl } = useConsole();
  const key = [baseUrl, 'staff', 'payments'];
  return (
    <>
      <ScreenHeading>Payments awaiting approval</ScreenHeading>
      <p>Cash, cheques and bank transfers wait here until a head of department or above confirms the money arrived. Whoever recorded a payment may not approve it.</p>
      <PagedTable<Transaction>
        queryKey={key}
        caption="Payments awaiting approval"
        empty="No payment is waiting for approval."
        columns={['Payment', 'Invoice', 'Amount', 'Method', 'Recorded', 'Decision']}
        fetchPage={(page) => unwrapPage(api.GET('/staff/transactions', { params: { query: { status: 'PENDING_APPROVAL', limit: 20, after: page.after } } }))}
        row={(payment) => (
          <>
            <td>{payment.transactionNo}{payment.policyId && <> (<a href={href('policies', payment.policyId)}>policy</a>)</>}</td>
            <td>{payment.invoice.invoiceNo}</td>
            <td><Money amount={payment.amount} currency={payment.currency} /></td>
            <td>{payment.paymentMethod}</td>
            <td><When at={payment.createdAt} />{payment.recordedBy?.staff ? <> by {payment.recordedBy.staff.fullName}</> : <> by the client</>}</td>
            <td className="console__decisions">
              <Decision operationId="approveTransaction" label={`Approve ${payment.transactionNo}`} text={{ label: 'Notes', required: false }} invalidates={[key]}
                submit={(notes) => unwrap(api.POST('/staff/transactions/{id}/approve', { params: { path: { id: payment.id } }, body: notes ? { notes } : {} }))} />
              <Decision operationId="rejectTransaction" label={`Reject ${payment.transactionNo}`} tone="danger" text={{ label: 'Reason', required: true }} invalidates={[key]}
                submit={(reason) => unwrap(api.POST('/staff/transactions/{id}/reject', { params: { path: { id: payment.id } }, body: { reason } }))} />
            </td>
          </>
        )}
      />
    </>
  );
}

export function Claims(): ReactNode {
  const { api, baseUrl } = useConsole();
  return (
    <>
      <ScreenHeading>Open claims</ScreenHeading>
      <PagedTable<Claim>
        queryKey={[baseUrl, 'staff', 'claims']}
        caption="Open claims"
        empty="No claim is open."
        columns={['Claim', 'Policy', 'Stage', 'Estimated loss', 'Notified']}
        fetchPage={(page) => unwrap(api.GET('/staff/claims', { params: { query: { status: 'ACTIVE', limit: 20, after: page.after } } }))}
        row={(claim) => (
          <>
            <td><a href={href('claims', claim.id)}>{claim.claimNo}</a></td>
            <td>{claim.policy.policyNo}</td>
            <td><Badge value={claim.stage} /></td>
            <td><Money amount={claim.estimatedLossAmount} currency={claim.currency} /></td>
            <td><When at={claim.dateOfNotification} /></td>
          </>
        )}
      />
    </>
  );
}

export function ClaimDetail({ id }: { id: string }): ReactNode {
  const { api, baseUrl } = useConsole();
  const key = [baseUrl, 'staff', 'claims'];
  const claim = useQuery({ queryKey: [...key, id], queryFn: async () => (await unwrap(api.GET('/staff/claims/{id}', { params: { path: { id } } }))).data });
  if (claim.isPending) return <Spinner label="Loading the claim…" />;
  if (claim.isError) return <ErrorBox error={claim.error} onRetry={() => claim.refetch()} />;
  const current = claim.data;
  const open = current.status === 'ACTIVE';
  const move = (stage: 'SETTLEMENT' | 'REPUDIATION' | 'REJECTED') => (notes: string) =>
    unwrap(api.POST('/staff/claims/{id}/stage', { params: { path: { id } }, body: { stage, notes } }));
  return (
    <>
      <ScreenHeading>Claim {current.claimNo}</ScreenHeading>
      <ClaimFacts claim={current} />
      {open && (
        <section aria-labelledby="console-claim-actions" className="console__decisions">
          <h3 id="console-claim-actions">What you can do</h3>
          {current.stage === 'REVIEW' && <Review claim={current} />}
          {current.stage === 'REVIEW' && (
            <>
              <Decision operationId="moveClaimStage" label="Move to settlement" text={{ label: 'Why', required: true }} invalidates={[key]} submit={move('SETTLEMENT')} />
              <Decision operationId="moveClaimStage" label="Move to repudiation" tone="danger" text={{ label: 'Why', required: true }} invalidates={[key]} submit={move('REPUDIATION')} />
            </>
          )}
          {current.stage === 'REPUDIATION' && (
            <Decision operationId="moveClaimStage" label="Reject the claim" tone="danger" text={{ label: 'Why', required: true }} invalidates={[key]} submit={move('REJECTED')} />
          )}
          {current.stage === 'SETTLEMENT' && <Settle claim={current} />}
          <Decision operationId="closeClaim" label="Close the claim" tone="secondary" text={{ label: 'Why', required: true }} invalidates={[key]}
            submit={(notes) => unwrap(api.POST('/staff/claims/{id}/close', { params: { path: { id } }, body: { notes } }))} />
        </section>
      )}
      <ClaimHistory claim={current} />
    </>
  );
}

/** A review: the inspection's notes and what the reviewer would settle for (which caps the settlement). */
function Review({ claim }: { claim: Claim }): ReactNode {
  const { api, baseUrl, can, showRefused } = useConsole();
  const queryClient = useQueryClient();
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const review = useMutation({
    mutationFn: (body: Schemas['ClaimReviewCreate']) =>
      unwrap(api.POST('/staff/claims/{id}/reviews', { params: { path: { id: claim.id }, header: { 'Idempotency-Key': idempotencyKey } }, body })),
    onSuccess: async () => {
      setIdempotencyKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'staff', 'claims'] });
    },
  });
  const allowed = can('reviewClaim');
  if (!allowed && !showRefused) return null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const notes = String(form.get('notes') ?? '').trim();
    review.mutate({ adjustedSettlementAmount: moneyOf(String(form.get('amount'))), ...(notes ? { generalNotes: notes } : {}) });
  };
  return (
    <form className="console__grid-form" onSubmit={submit} aria-label="Review the claim">
      <Field label="Settle for (adjusted amount)" hint={`Estimated loss: ${claim.currency} ${claim.estimatedLossAmount}`}>{(id, hint) => (
        <input id={id} name="amount" required inputMode="decimal" pattern="\d{1,13}(\.\d{1,2})?" defaultValue={String(claim.estimatedLossAmount)} aria-describedby={hint} />
      )}</Field>
      <Field label="Review notes">{(id) => <input id={id} name="notes" maxLength={2000} />}</Field>
      <div className="console__actions">
        <button type="submit" className="button button--primary button--sm" disabled={review.isPending}>{allowed ? 'Record the review' : 'Record the review (not permitted)'}</button>
      </div>
      {review.isError && <ErrorBox error={review.error} />}
    </form>
  );
}

/** The settlement: paid within the reviewed amount and the settler's limit; recording it settles and closes the claim. */
function Settle({ claim }: { claim: Claim }): ReactNode {
  const { api, baseUrl, can, showRefused } = useConsole();
  const queryClient = useQueryClient();
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const settle = useMutation({
    mutationFn: (body: Schemas['ClaimSettlementCreate']) =>
      unwrap(api.POST('/staff/claims/{id}/settlements', { params: { path: { id: claim.id }, header: { 'Idempotency-Key': idempotencyKey } }, body })),
    onSuccess: async () => {
      setIdempotencyKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: [baseUrl, 'staff', 'claims'] });
    },
  });
  const allowed = can('settleClaim');
  if (!allowed && !showRefused) return null;
  const adjusted = claim.reviews.at(-1)?.adjustedSettlementAmount ?? claim.estimatedLossAmount;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    settle.mutate({
      amount: moneyOf(text('amount')), recipient: text('recipient'), paymentDate: text('paymentDate'),
      paymentMethod: text('paymentMethod') as Schemas['PaymentMethod'], paymentMethodInfo: text('paymentMethodInfo'), contributionApplicable: false,
    });
  };
  return (
    <form className="console__grid-form" onSubmit={submit} aria-label="Settle the claim">
      <Field label="Amount paid">{(id) => <input id={id} name="amount" required inputMode="decimal" pattern="\d{1,13}(\.\d{1,2})?" defaultValue={String(adjusted)} />}</Field>
      <Field label="Paid to">{(id) => <input id={id} name="recipient" required maxLength={200} />}</Field>
      <Field label="Paid on">{(id) => <input id={id} name="paymentDate" type="date" required defaultValue={new Date().toISOString().slice(0, 10)} />}</Field>
      <Field label="Paid by">{(id) => (
        <select id={id} name="paymentMethod" defaultValue="BANK_TRANSFER">
          <option value="BANK_TRANSFER">Bank transfer</option><option value="MOBILE_MONEY">Mobile money</option>
          <option value="CHEQUE">Cheque</option><option value="CASH">Cash</option>
        </select>
      )}</Field>
      <Field label="Payment reference">{(id) => <input id={id} name="paymentMethodInfo" required maxLength={200} />}</Field>
      <div className="console__actions">
        <button type="submit" className="button button--primary button--sm" disabled={settle.isPending}>{allowed ? 'Record the settlement' : 'Record the settlement (not permitted)'}</button>
      </div>
      {settle.isError && <ErrorBox error={settle.error} />}
    </form>
  );
}

export function Closures(): ReactNode {
  const { api, baseUrl } = useConsole();
  const key = [baseUrl, 'staff', 'closures'];
  return (
    <>
      <ScreenHeading>Closure requests</ScreenHeading>
      <p>Approving a request cancels its policy from the effective date.</p>
      <PagedTable<Closure>
        queryKey={key}
        caption="Closure requests awaiting a decision"
        empty="No closure request is waiting."
        columns={['Policy', 'Reason', 'Effective', 'Requested', 'Decision']}
        fetchPage={(page) => unwrap(api.GET('/staff/policy-closures', { params: { query: { status: 'PENDING_REVIEW', limit: 20, after: page.after } } }))}
        row={(closure) => (
          <>
            <td><a href={href('policies', closure.policy.id)}>{closure.policy.policyNo}</a></td>
            <td>{closure.reason}</td>
            <td><When at={closure.effectiveDate} /></td>
            <td><When at={closure.createdAt} /></td>
            <td className="console__decisions">
              <Decision operationId="approvePolicyClosure" label={`Approve the closure of ${closure.policy.policyNo}`} text={{ label: 'Notes', required: false }} invalidates={[key]}
                submit={(notes) => unwrap(api.POST('/staff/policy-closures/{id}/approve', { params: { path: { id: closure.id } }, body: notes ? { notes } : {} }))} />
              <Decision operationId="rejectPolicyClosure" label={`Reject the closure of ${closure.policy.policyNo}`} tone="danger" text={{ label: 'Reason', required: true }} invalidates={[key]}
                submit={(reason) => unwrap(api.POST('/staff/policy-closures/{id}/reject', { params: { path: { id: closure.id } }, body: { reason } }))} />
            </td>
          </>
        )}
      />
    </>
  );
}
