import { useState, type FormEvent, type ReactNode } from 'react';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import type { components } from '../../../generated/api';

/** A message as `GET /sandbox/messages` answers it (the contract's SandboxMessage). */
type SandboxMessage = components['schemas']['SandboxMessage'];

/** The key the sandbox seeds (`npm start`; `SANDBOX_API_KEY` chooses another): documented, never a secret. */
const SANDBOX_API_KEY = 'sk_sandbox_coverline_0000000000000000';
/** Messages shown at once: the newest. */
const PAGE_SIZE = 50;

type Mailbox =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; url: string; messages: SandboxMessage[]; total: number }
  | { state: 'failed'; problem: string };

/** The newest messages of the sandbox mailbox, to `recipient` when given; a sentence saying what went wrong otherwise. */
async function readMailbox(baseUrl: string, apiKey: string, recipient: string): Promise<Mailbox> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.trim().replace(/\/+$/, '')}/sandbox/messages`);
  } catch {
    return { state: 'failed', problem: `${baseUrl} is not a URL: give the API's address up to /api/v1, e.g. http://localhost:3000/api/v1.` };
  }
  if (recipient.trim()) url.searchParams.set('recipient', recipient.trim());
  url.searchParams.set('limit', String(PAGE_SIZE));
  let response: Response;
  try {
    response = await fetch(url, { headers: { 'Api-Key': apiKey.trim(), Accept: 'application/json' } });
  } catch {
    return {
      state: 'failed',
      problem: `No answer from ${url.origin}. Is the API running (npm start in the API repository), at this address, `
        + 'and does it allow this site\'s origin (CORS_ORIGINS)?',
    };
  }
  const body = await response.json().catch(() => undefined);
  if (response.ok) return { state: 'loaded', url: url.href, messages: body.data, total: body.paginator.itemsCount };
  if (response.status === 404 && body?.code === 'ROUTE_NOT_FOUND') {
    return { state: 'failed', problem: 'This API has no sandbox mailbox: it runs in production, or the Api-Key is a production key.' };
  }
  return { state: 'failed', problem: `${response.status} ${body?.code ?? response.statusText}: ${body?.message ?? 'the API refused the request'}` };
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** One message: who it went to, its code, its state, and (opened) the message itself. */
function Message({ message }: { message: SandboxMessage }): ReactNode {
  const title = message.subject ?? message.text;
  return (
    <article className="card sandbox-mailbox__message" data-message-id={message.id}>
      <div className="card__body">
        <div className="sandbox-mailbox__heading">
          <strong className="sandbox-mailbox__subject">{title}</strong>
          <span className={`badge ${message.status === 'FAILED' ? 'badge--danger' : message.status === 'SENT' ? 'badge--success' : 'badge--secondary'}`}>
            {message.status}
          </span>
        </div>
        <dl className="sandbox-mailbox__facts">
          <dt>To</dt>
          <dd>{message.recipient} ({message.channel === 'sms' ? 'SMS' : 'e-mail'})</dd>
          <dt>Code</dt>
          <dd>{message.code ? <code className="sandbox-mailbox__code">{message.code}</code> : '—'}</dd>
          <dt>Sent</dt>
          <dd>{message.sentAt ? when(message.sentAt) : `not yet (written ${when(message.createdAt)})`}</dd>
          <dt>Template</dt>
          <dd><code>{message.template}</code></dd>
          {message.lastError && (
            <>
              <dt>Last error</dt>
              <dd>{message.lastError}</dd>
            </>
          )}
        </dl>
        <details>
          <summary>Show the message</summary>
          {message.html ? (
            // The e-mail as sent, in a frame that may run nothing and reach nothing (no scripts, forms or navigation).
            <iframe className="sandbox-mailbox__html" sandbox="" srcDoc={message.html} title={`The e-mail ${title}`} />
          ) : (
            <pre className="sandbox-mailbox__text">{message.text}</pre>
          )}
        </details>
      </div>
    </article>
  );
}

export default function SandboxMailbox(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  const [baseUrl, setBaseUrl] = useState(String(siteConfig.customFields?.apiBaseUrl ?? 'http://localhost:3000/api/v1'));
  const [apiKey, setApiKey] = useState(SANDBOX_API_KEY);
  const [recipient, setRecipient] = useState('');
  const [mailbox, setMailbox] = useState<Mailbox>({ state: 'idle' });

  const load = async (event: FormEvent) => {
    event.preventDefault();
    setMailbox({ state: 'loading' });
    setMailbox(await readMailbox(baseUrl, apiKey, recipient));
  };

  return (
    <Layout title="Sandbox mailbox" description="The e-mails and SMS a Coverline sandbox sent, with their one-time codes.">
      <main className="container margin-vert--lg sandbox-mailbox">
        <Heading as="h1">Sandbox mailbox</Heading>
        <p>
          Every e-mail and SMS a sandbox API sent for your company, newest first, one-time codes shown: read
          the code of a sign-up, a verification or a password reset here instead of in a real inbox. The page
          calls <Link to="/docs/sandbox/messages"><code>GET /sandbox/messages</code></Link> from your browser; the
          API answers it only outside production and only to a sandbox <code>Api-Key</code>.
        </p>
        <form className="sandbox-mailbox__form" onSubmit={load}>
          <label htmlFor="mailbox-base-url">API base URL</label>
          <input id="mailbox-base-url" type="url" required value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="http://localhost:3000/api/v1" />
          <label htmlFor="mailbox-api-key">Api-Key</label>
          <input id="mailbox-api-key" required value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" spellCheck={false} />
          <label htmlFor="mailbox-recipient">Recipient</label>
          <input id="mailbox-recipient" value={recipient} onChange={(e) => setRecipient(e.target.value)}
            placeholder="an e-mail address or a phone number (+233...); empty: everyone" />
          <button type="submit" className="button button--primary" disabled={mailbox.state === 'loading'}>
            {mailbox.state === 'loaded' ? 'Refresh' : 'Show messages'}
          </button>
        </form>
        {mailbox.state === 'loading' && <p>Loading…</p>}
        {mailbox.state === 'failed' && <div className="alert alert--danger" role="alert">{mailbox.problem}</div>}
        {mailbox.state === 'loaded' && (
          <>
            <p className="sandbox-mailbox__source">
              {mailbox.total === 0 ? 'No messages' : `${Math.min(mailbox.total, PAGE_SIZE)} of ${mailbox.total} messages`} from <code>{mailbox.url}</code>
            </p>
            {mailbox.messages.map((message) => <Message key={message.id} message={message} />)}
          </>
        )}
      </main>
    </Layout>
  );
}
