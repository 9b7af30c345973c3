/**
 * The demo console (issue 30): a reference client for the API, in the reader's browser. A client
 * signs up, buys and pays, follows its policy and claims; a staff member works the back office's
 * queues, with what each screen offers read from GET /staff/permissions. Every call goes through
 * openapi-fetch typed from the contract (api.ts) and TanStack Query; tokens live in memory only
 * (session.ts). src/pages/demo.tsx renders it inside <BrowserOnly>.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createApi, isRefusal, SANDBOX_API_KEY, unwrap, type Api } from './api';
import { readBaseUrl, writeBaseUrl } from './baseUrl';
import { ConsoleContext, useConsole, type ConsoleState, type StaffPermission } from './context';
import { href, navigate, useRoute, type Route } from './router';
import { TokenKeeper, type Session, type Tokens } from './session';
import { SignIn } from './SignIn';
import { ErrorBox, Spinner } from './ui';
import { ClientScreens, CLIENT_NAV } from './client/screens';
import { StaffScreens, STAFF_NAV } from './staff/screens';

export interface NavItem { path: string; label: string; operationId?: string }

function Navigation({ items, route }: { items: NavItem[]; route: Route }): ReactNode {
  const { can } = useConsole();
  return (
    <nav aria-label="Console" className="console__nav">
      <ul>
        {items.filter((item) => !item.operationId || can(item.operationId)).map((item) => {
          const current = route.segments[0] === item.path;
          return (
            <li key={item.path}>
              <a href={href(item.path)} aria-current={current ? 'page' : undefined} className={current ? 'console__nav-current' : undefined}>{item.label}</a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** What a staff member may call: the permission table read against their type and position. */
function useStaffPermissions(api: Api, session: Session, baseUrl: string) {
  return useQuery({
    queryKey: [baseUrl, 'staff', session.id, 'permissions'],
    enabled: session.kind === 'staff',
    staleTime: Infinity,
    queryFn: async () => (await unwrap(api.GET('/staff/permissions'))).data,
  });
}

function SignedIn({ api, baseUrl, session, onSignOut }: { api: Api; baseUrl: string; session: Session; onSignOut: () => void }): ReactNode {
  const route = useRoute();
  const [showRefused, setShowRefused] = useState(false);
  const permissions = useStaffPermissions(api, session, baseUrl);
  const can = useCallback((operationId: string) => {
    if (session.kind === 'client') return true;
    const row = permissions.data?.find((permission: StaffPermission) => permission.operationId === operationId);
    return !!row?.grants.some((grant) => grant.type === session.staff?.type && grant.position === session.staff?.position);
  }, [permissions.data, session]);
  const state: ConsoleState = useMemo(() => ({ api, baseUrl, session, can, showRefused }), [api, baseUrl, session, can, showRefused]);

  if (session.kind === 'staff' && permissions.isPending) return <Spinner label="Reading what you may do…" />;
  if (session.kind === 'staff' && permissions.isError) return <ErrorBox error={permissions.error} onRetry={() => permissions.refetch()} />;
  return (
    <ConsoleContext.Provider value={state}>
      <div className="console__bar">
        <p className="margin-bottom--none">
          Signed in as <strong data-testid="signed-in-as">{session.name}</strong> at <code>{baseUrl}</code>.
        </p>
        {session.kind === 'staff' && (
          <label className="console__toggle">
            <input type="checkbox" checked={showRefused} onChange={(event) => setShowRefused(event.target.checked)} />
            {' '}Show actions my position may not take (to see the API refuse them)
          </label>
        )}
        <button type="button" className="button button--secondary button--sm" onClick={onSignOut}>Sign out</button>
      </div>
      <Navigation items={session.kind === 'client' ? CLIENT_NAV : STAFF_NAV} route={route} />
      <div className="console__screen" key={route.path}>
        {session.kind === 'client' ? <ClientScreens route={route} /> : <StaffScreens route={route} />}
      </div>
    </ConsoleContext.Provider>
  );
}

function Shell({ builtWith, queryClient }: { builtWith: string; queryClient: QueryClient }): ReactNode {
  const [connection, setConnection] = useState(() => ({ baseUrl: readBaseUrl(builtWith), apiKey: SANDBOX_API_KEY }));
  const [session, setSession] = useState<Session>();
  const keeper = useMemo(() => new TokenKeeper(connection.baseUrl.trim().replace(/\/+$/, ''), connection.apiKey), [connection]);
  const api = useMemo(() => createApi(connection.baseUrl, connection.apiKey, () => keeper.current()), [connection, keeper]);

  const signedIn = ({ session: who, tokens }: { session: Session; tokens: Tokens }) => {
    writeBaseUrl(connection.baseUrl, builtWith);
    keeper.keep(who.kind, tokens);
    setSession(who);
    navigate(href(who.kind === 'client' ? 'products' : 'payments'));
  };
  const signOut = async () => {
    const kind = session?.kind;
    // The API revokes the session and its refresh tokens; the console forgets them whatever it answers.
    await (kind === 'staff' ? api.POST('/staff/auth/logout') : api.POST('/auth/logout')).catch(() => undefined);
    keeper.forget();
    queryClient.clear();
    setSession(undefined);
    navigate(href());
  };

  if (!session) return <SignIn api={api} connection={connection} onConnection={setConnection} onSignedIn={signedIn} />;
  return <SignedIn api={api} baseUrl={connection.baseUrl.trim().replace(/\/+$/, '')} session={session} onSignOut={signOut} />;
}

export default function Console({ builtWith }: { builtWith: string }): ReactNode {
  // One cache per mounted console: nothing is shared with another tab or kept after the page goes.
  // A read is tried again once when there was no answer or a 5xx; a 4xx would only be refused again.
  const [queryClient] = useState(() => new QueryClient({
    defaultOptions: {
      queries: { retry: (failures, error) => failures < 1 && !(isRefusal(error) && error.statusCode < 500), staleTime: 10_000 },
      mutations: { retry: false },
    },
  }));
  return (
    <QueryClientProvider client={queryClient}>
      <Shell builtWith={builtWith} queryClient={queryClient} />
    </QueryClientProvider>
  );
}
