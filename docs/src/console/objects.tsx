/**
 * How the console shows the API's objects, the same for a client and for staff: a policy's facts
 * and its state history, a claim's facts and its stage and status history, a payment's status.
 */
import type { ReactNode } from 'react';
import type { Schemas } from './api';
import { href } from './router';
import { Badge, Facts, Money, When } from './ui';

type Policy = Schemas['Policy'];
/** A move in a policy's history, as the client's and the staff's history calls both answer it. */
type PolicyStateChange = Schemas['PolicyStateChange'] | Schemas['ClientPolicyStateChange'];
type Claim = Schemas['Claim'];

export function PolicyFacts({ policy }: { policy: Policy }): ReactNode {
  return (
    <Facts items={[
      ['Policy number', policy.policyNo],
      ['State', <Badge key="state" value={policy.state} />],
      ['Product', `${policy.product.name} (${policy.policyType})`],
      ['Client', policy.client.fullName],
      ['Cover', <span key="cover"><When at={policy.startDate} /> to <When at={policy.endDate} /></span>],
      ['Sum insured', <Money key="sum" amount={policy.sumInsured} currency={policy.currency} />],
      ['Premium', <Money key="premium" amount={policy.premium} currency={policy.currency} />],
      ['Paid', policy.isPaid ? 'Yes' : 'No'],
      ['Invoice', policy.invoice ? <span key="invoice">{policy.invoice.invoiceNo}, <Money amount={policy.invoice.amount} currency={policy.invoice.currency} /></span> : '—'],
    ]} />
  );
}

/** A policy's cells in a list of policies: the client's own list leaves out whose it is. */
export function PolicyCells({ policy, withClient }: { policy: Policy; withClient: boolean }): ReactNode {
  return (
    <>
      <td><a href={href('policies', policy.id)}>{policy.policyNo}</a></td>
      {withClient && <td>{policy.client.fullName}</td>}
      <td>{policy.product.name}</td>
      <td><Badge value={policy.state} /></td>
      <td><Money amount={policy.premium} currency={policy.currency} /></td>
      <td><When at={policy.startDate} /> to <When at={policy.endDate} /></td>
    </>
  );
}

/** One move in a history: when, from, to, by whom and why. */
function Move({ at, what, from, to, by, notes }: { at: string; what?: string; from: string | null; to: string; by?: string; notes: string | null }): ReactNode {
  return (
    <li>
      <When at={at} />: {what && `${what} `}{from ? <><Badge value={from} /> → </> : null}<Badge value={to} />
      {by && <> by {by}</>}
      {notes && <>: <q>{notes}</q></>}
    </li>
  );
}

const byWhom = (by: PolicyStateChange['by']): string => by.kind === 'staff' ? (by.staff?.fullName ?? 'staff') : by.kind === 'system' ? 'Coverline' : 'the client';

export function PolicyHistory({ history }: { history: PolicyStateChange[] }): ReactNode {
  return (
    <section aria-labelledby="console-policy-history">
      <h3 id="console-policy-history">State history</h3>
      <ol className="console__history">
        {history.map((change, index) => <Move key={index} at={change.at} from={change.from} to={change.to} by={byWhom(change.by)} notes={change.notes} />)}
      </ol>
    </section>
  );
}

export function ClaimFacts({ claim }: { claim: Claim }): ReactNode {
  const settled = claim.settlements.at(-1);
  const reviewed = claim.reviews.at(-1);
  return (
    <Facts items={[
      ['Claim number', claim.claimNo],
      ['Status', <Badge key="status" value={claim.status} />],
      ['Stage', <Badge key="stage" value={claim.stage} />],
      ['Policy', `${claim.policy.policyNo} (${claim.policy.productName})`],
      ['Notified', <When key="notified" at={claim.dateOfNotification} />],
      ['Estimated loss', <Money key="loss" amount={claim.estimatedLossAmount} currency={claim.currency} />],
      ['Adjusted amount', reviewed?.adjustedSettlementAmount != null ? <Money key="adjusted" amount={reviewed.adjustedSettlementAmount} currency={claim.currency} /> : '—'],
      ['Settled', settled ? <span key="settled"><Money amount={settled.amount} currency={claim.currency} /> to {settled.recipient}</span> : '—'],
      ['Description', claim.description ?? '—'],
    ]} />
  );
}

export function ClaimHistory({ claim }: { claim: Claim }): ReactNode {
  const changes = [...claim.meta.stageHistory.map((c) => ({ ...c, what: 'Stage' })), ...claim.meta.statusHistory.map((c) => ({ ...c, what: 'Status' }))]
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return (
    <section aria-labelledby="console-claim-history">
      <h3 id="console-claim-history">What happened</h3>
      <ol className="console__history">
        {changes.map((change, index) => (
          <Move key={index} at={change.createdAt} what={change.what} from={change.from} to={change.to} by={change.staffMember?.fullName} notes={change.notes} />
        ))}
        {claim.reviews.map((review) => (
          <li key={review.id}>
            <When at={review.createdAt} />: reviewed by {review.createdByStaff.fullName}
            {review.adjustedSettlementAmount != null && <>, adjusted to <Money amount={review.adjustedSettlementAmount} currency={claim.currency} /></>}
            {review.generalNotes && <>: <q>{review.generalNotes}</q></>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Today and a year less a day from it, in UTC as the API counts days (a policy may start today). */
export function yearFromToday(): { startDate: string; endDate: string } {
  const start = new Date();
  const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), start.getUTCDate() - 1));
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
}
