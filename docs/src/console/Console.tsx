/**
 * The spike's console (issue 30): a client signs in (POST /auth/login) and lists the products it can
 * buy (GET /client/products), through openapi-fetch and TanStack Query. Loaded in the browser only
 * (src/pages/demo.tsx renders it inside <BrowserOnly>): it reads sessionStorage and keeps the token in
 * memory, so a reload or a sign-out forgets it.
 */
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { createApi, problemOf, SANDBOX_API_KEY, unwrap, type components } from './api';
import { readBaseUrl, writeBaseUrl } from './baseUrl';

type Product = components['schemas']['Product'];

/** The site's error pattern: an alert saying what went wrong, with Retry when the call can be made again. */
function ErrorBox({ problem, onRetry }: { problem: string; onRetry?: () => void }): ReactNode {
  return (
    <div className="alert alert--danger margin-vert--md" role="alert">
      <p>{problem}</p>
      {onRetry && <button type="button" className="button button--secondary button--sm" onClick={onRetry}>Retry</button>}
    </div>
  );
}

function Spinner({ label }: { label: string }): ReactNode {
  return <p role="status" aria-live="polite" className="console__loading">{label}</p>;
}

function Products({ api, baseUrl }: { api: ReturnType<typeof createApi>; baseUrl: string }): ReactNode {
  const products = useQuery({
    queryKey: ['client', baseUrl, 'products'],
    queryFn: () => unwrap(api.GET('/client/products', { params: { query: { limit: 50 } } })),
  });
  if (products.isPending) return <Spinner label="Loading the products…" />;
  if (products.isError) return <ErrorBox problem={problemOf(products.error, baseUrl)} onRetry={() => products.refetch()} />;
  return (
    <section aria-labelledby="console-products">
      <h2 id="console-products">Products you can buy ({products.data.paginator.itemsCount})</h2>
      <ul className="console__products">
        {products.data.data.map((product: Product) => (
          <li key={product.id} data-product-id={product.id}>
            <strong>{product.name}</strong> <span className="badge badge--secondary">{product.category}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ClientConsole({ builtWith }: { builtWith: string }): ReactNode {
  const [baseUrl, setBaseUrl] = useState(() => readBaseUrl(builtWith));
  const [apiKey, setApiKey] = useState(SANDBOX_API_KEY);
  const token = useRef<string | undefined>(undefined);
  const [signedInAs, setSignedInAs] = useState<string>();
  const api = useMemo(() => createApi(baseUrl, apiKey, () => token.current), [baseUrl, apiKey]);

  const login = useMutation({
    mutationFn: (body: { username: string; password: string }) => unwrap(api.POST('/auth/login', { body })),
    onSuccess: (answer) => {
      token.current = answer.data.accessToken;
      setSignedInAs(answer.data.email ?? answer.data.phoneNumber ?? answer.data.id);
    },
  });

  const signIn = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    writeBaseUrl(baseUrl, builtWith);
    login.mutate({ username: String(form.get('username')), password: String(form.get('password')) });
  };

  if (signedInAs) {
    return (
      <>
        <p>
          Signed in as <strong>{signedInAs}</strong> at <code>{baseUrl}</code>.{' '}
          <button type="button" className="button button--secondary button--sm"
            onClick={() => { token.current = undefined; setSignedInAs(undefined); login.reset(); }}>
            Sign out
          </button>
        </p>
        <Products api={api} baseUrl={baseUrl} />
      </>
    );
  }
  return (
    <form className="console__form" onSubmit={signIn} aria-labelledby="console-sign-in">
      <h2 id="console-sign-in">Sign in as a client</h2>
      <label htmlFor="console-base-url">API base URL</label>
      <input id="console-base-url" type="url" required value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      <label htmlFor="console-api-key">Api-Key</label>
      <input id="console-api-key" required value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" spellCheck={false} />
      <label htmlFor="console-username">E-mail or phone number</label>
      <input id="console-username" name="username" required autoComplete="username" />
      <label htmlFor="console-password">Password</label>
      <input id="console-password" name="password" type="password" required autoComplete="current-password" />
      <button type="submit" className="button button--primary" disabled={login.isPending}>Sign in</button>
      {login.isPending && <Spinner label="Signing in…" />}
      {login.isError && <ErrorBox problem={problemOf(login.error, baseUrl)} />}
    </form>
  );
}

export default function Console({ builtWith }: { builtWith: string }): ReactNode {
  // One cache per mounted console: nothing is shared with another tab or kept after the page goes.
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 30_000 } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <ClientConsole builtWith={builtWith} />
    </QueryClientProvider>
  );
}
