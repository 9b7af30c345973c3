/**
 * Compile-time proof that the console's calls are checked against the contract: each
 * `@ts-expect-error` line below is a call the contract does not allow. If one of them ever compiles
 * (the types stopped checking), `npm run --prefix docs typecheck` fails with "Unused
 * '@ts-expect-error' directive". Never imported by the site; only tsc reads it.
 */
import { createApi } from './api';

export async function contractCheck(): Promise<void> {
  const api = createApi('http://localhost:3000/api/v1', 'key', () => undefined);

  // Allowed: the contract's path, query and body.
  await api.GET('/client/products', { params: { query: { limit: 10, category: 'AUTO' } } });
  await api.POST('/auth/login', { body: { username: 'a@example.com', password: 'secret' } });

  // @ts-expect-error a path the contract does not have
  await api.GET('/client/product');
  // @ts-expect-error a query parameter of the wrong type (limit is a number)
  await api.GET('/client/products', { params: { query: { limit: 'ten' } } });
  // @ts-expect-error a category that is not a PolicyType
  await api.GET('/client/products', { params: { query: { category: 'SPACESHIP' } } });
  // @ts-expect-error a login body without its password
  await api.POST('/auth/login', { body: { username: 'a@example.com' } });
  // @ts-expect-error a method the path does not answer
  await api.DELETE('/auth/login');
  // @ts-expect-error a path parameter left out
  await api.GET('/client/products/{id}', {});

  const { data } = await api.POST('/auth/login', { body: { username: 'a@example.com', password: 'secret' } });
  if (data) {
    const token: string = data.data.accessToken;
    // @ts-expect-error a field the answer does not have
    void data.data.sessionCookie;
    void token;
  }
}
