/**
 * Before anyone is signed in: where the API is, and a client's sign-in or sign-up, or a staff
 * member's sign-in. The sandbox's staff accounts are listed, since the demo is for trying them.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { unwrap, type Api, type Schemas } from './api';
import type { Kind, Session, Tokens } from './session';
import { ErrorBox, Spinner } from './ui';

export const SANDBOX_STAFF = ['exec', 'branch.manager', 'head.sales', 'head.claims', 'officer', 'agent']
  .map((name) => `${name}@sandbox.coverline.example`);
export const SANDBOX_STAFF_PASSWORD = 'Sandbox-Staff-2026';

type Signed = { session: Session; tokens: Tokens };
type ClientAnswer = Schemas['AuthenticatedClientResponse']['data'];

const clientSigned = (client: ClientAnswer): Signed => ({
  session: { kind: 'client', id: client.id, name: client.fullName || client.email || client.phoneNumber || client.id },
  tokens: client,
});

type Mode = 'client-sign-in' | 'client-sign-up' | 'staff-sign-in';
const MODES: { mode: Mode; label: string }[] = [
  { mode: 'client-sign-in', label: 'Client sign-in' },
  { mode: 'client-sign-up', label: 'Client sign-up' },
  { mode: 'staff-sign-in', label: 'Staff sign-in' },
];

export function SignIn({ api, connection, onConnection, onSignedIn }: {
  api: Api;
  connection: { baseUrl: string; apiKey: string };
  onConnection: (connection: { baseUrl: string; apiKey: string }) => void;
  onSignedIn: (signed: Signed) => void;
}): ReactNode {
  const [mode, setMode] = useState<Mode>('client-sign-in');
  const call = useMutation({
    mutationFn: async ({ kind, form }: { kind: Mode; form: FormData }): Promise<Signed> => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      if (kind === 'staff-sign-in') {
        const staff = (await unwrap(api.POST('/staff/auth/login', { body: { username: text('username'), password: String(form.get('password')) } }))).data;
        return { session: { kind: 'staff', id: staff.id, name: `${staff.fullName} (${staff.position}${staff.type === 'AGENT' ? ', agent' : ''})`, staff }, tokens: staff };
      }
      if (kind === 'client-sign-up') {
        const body = {
          type: 'INDIVIDUAL' as const, firstName: text('firstName'), lastName: text('lastName'), email: text('email'),
          password: String(form.get('password')), country: text('country').toUpperCase(), groups: [],
        };
        return clientSigned((await unwrap(api.POST('/auth/signup', { body }))).data);
      }
      return clientSigned((await unwrap(api.POST('/auth/login', { body: { username: text('username'), password: String(form.get('password')) } }))).data);
    },
    onSuccess: onSignedIn,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    call.mutate({ kind: mode, form: new FormData(event.currentTarget) });
  };
  const kind: Kind = mode === 'staff-sign-in' ? 'staff' : 'client';

  return (
    <>
      <form className="console__form" aria-labelledby="console-connection" onSubmit={(event) => event.preventDefault()}>
        <h2 id="console-connection">The API</h2>
        <label htmlFor="console-base-url">API base URL</label>
        <input id="console-base-url" type="url" required value={connection.baseUrl} onChange={(e) => onConnection({ ...connection, baseUrl: e.target.value })} />
        <label htmlFor="console-api-key">Api-Key</label>
        <input id="console-api-key" required value={connection.apiKey} onChange={(e) => onConnection({ ...connection, apiKey: e.target.value })} autoComplete="off" spellCheck={false} />
      </form>
      <div className="console__modes" role="group" aria-label="Who signs in">
        {MODES.map((choice) => (
          <button key={choice.mode} type="button" aria-pressed={mode === choice.mode}
            className={`button button--sm ${mode === choice.mode ? 'button--primary' : 'button--secondary'}`}
            onClick={() => { setMode(choice.mode); call.reset(); }}>
            {choice.label}
          </button>
        ))}
      </div>
      <form key={mode} className="console__form" onSubmit={submit} aria-labelledby="console-sign-in">
        <h2 id="console-sign-in">{MODES.find((choice) => choice.mode === mode)!.label}</h2>
        {mode === 'client-sign-up' ? (
          <>
            <label htmlFor="console-first-name">First name</label>
            <input id="console-first-name" name="firstName" required maxLength={100} autoComplete="given-name" />
            <label htmlFor="console-last-name">Last name</label>
            <input id="console-last-name" name="lastName" required maxLength={100} autoComplete="family-name" />
            <label htmlFor="console-email">E-mail</label>
            <input id="console-email" name="email" type="email" required autoComplete="email" />
            <label htmlFor="console-country">Country (ISO code)</label>
            <input id="console-country" name="country" required defaultValue="GH" pattern="[A-Za-z]{2}" maxLength={2} autoComplete="country" />
          </>
        ) : (
          <>
            <label htmlFor="console-username">E-mail or phone number</label>
            <input id="console-username" name="username" required autoComplete="username" list={kind === 'staff' ? 'console-sandbox-staff' : undefined} />
            {kind === 'staff' && (
              <datalist id="console-sandbox-staff">{SANDBOX_STAFF.map((email) => <option key={email} value={email} />)}</datalist>
            )}
          </>
        )}
        <label htmlFor="console-password">Password</label>
        <input id="console-password" name="password" type="password" required minLength={mode === 'client-sign-up' ? 8 : 1}
          autoComplete={mode === 'client-sign-up' ? 'new-password' : 'current-password'} />
        <button type="submit" className="button button--primary" disabled={call.isPending}>{mode === 'client-sign-up' ? 'Sign up' : 'Sign in'}</button>
        {call.isPending && <Spinner label="Signing in…" />}
        {call.isError && <ErrorBox error={call.error} />}
      </form>
      {kind === 'staff' && (
        <p className="console__hint">
          The sandbox company has one staff member of each position, all with the password <code>{SANDBOX_STAFF_PASSWORD}</code>:{' '}
          {SANDBOX_STAFF.map((email, index) => <span key={email}>{index > 0 && ', '}<code>{email}</code></span>)}.
        </p>
      )}
    </>
  );
}
