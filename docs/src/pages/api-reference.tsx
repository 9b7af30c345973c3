import { useMemo, type ReactNode } from 'react';
import BrowserOnly from '@docusaurus/BrowserOnly';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';

/**
 * The specification to render: `?url=` when the reader gives an http(s) URL (to look at another
 * running API without rebuilding the site), else the one the site was built with (API_SPEC_URL).
 */
function specUrl(builtWith: string): string {
  const asked = new URLSearchParams(window.location.search).get('url');
  if (asked) {
    try {
      const url = new URL(asked, window.location.href);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
    } catch {
      // not a URL: fall back to the built-in one
    }
  }
  return builtWith;
}

/** The API's base URL for a contract it serves: `…/api/v1/openapi.json` -> `…/api/v1`. */
function baseUrlOf(spec: string): string {
  const url = new URL(spec);
  url.search = '';
  url.hash = '';
  return url.pathname.endsWith('/openapi.json') ? url.href.slice(0, -'/openapi.json'.length) : new URL('.', url).href.replace(/\/$/, '');
}

/**
 * A swagger-ui plugin: the API the contract was loaded from comes first in its Servers list, so
 * "Try it out" calls that API (the contract's own servers, the sandbox on localhost:3000 first, follow).
 */
function serverLoadedFrom(baseUrl: string) {
  type Spec = Record<string, unknown> & { servers?: { url?: string; description?: string }[] };
  return () => ({
    statePlugins: {
      spec: {
        wrapActions: {
          // Only a contract (a failed load passes `{}`, which must stay empty for swagger-ui to say so).
          updateJsonSpec: (original: (spec: Spec) => unknown) => (spec: Spec) => original(!spec || !('openapi' in spec) ? spec : {
            ...spec,
            servers: [
              { url: baseUrl, description: 'the API this reference was loaded from' },
              ...(Array.isArray(spec.servers) ? spec.servers.filter((server) => server?.url !== baseUrl) : []),
            ],
          }),
        },
      },
    },
  });
}

function Reference({ builtWith }: { builtWith: string }): ReactNode {
  // swagger-ui touches `window` as it loads, so it is only ever loaded in the browser.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const SwaggerUI = require('swagger-ui-react').default;
  require('swagger-ui-react/swagger-ui.css');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const url = specUrl(builtWith);
  const baseUrl = baseUrlOf(url);
  const plugins = useMemo(() => [serverLoadedFrom(baseUrl)], [baseUrl]);
  return (
    <>
      {/* A plain GET form: the page reloads with ?url=<base URL>/openapi.json, an address to bookmark or share. */}
      <form
        className="api-reference__base-url"
        onSubmit={(event) => {
          event.preventDefault();
          const typed = String(new FormData(event.currentTarget).get('baseUrl') ?? '').trim().replace(/\/+$/, '');
          window.location.search = `?url=${encodeURIComponent(`${typed}/openapi.json`)}`;
        }}
      >
        <label htmlFor="api-base-url">API base URL</label>
        <input id="api-base-url" name="baseUrl" type="url" required defaultValue={baseUrl} placeholder="http://localhost:3000/api/v1" />
        <button type="submit" className="button button--primary button--sm">Load</button>
      </form>
      <p className="api-reference__source">
        Loaded in your browser from <a href={url}><code>{url}</code></a>, the contract the running API serves;
        &quot;Try it out&quot; calls <code>{baseUrl}</code> (first in Servers). Start the API (<code>npm start</code>{' '}
        in the API repository) if it does not load, or give the base URL of another one above (it must allow
        this site&apos;s origin: <code>CORS_ORIGINS</code>).
      </p>
      <SwaggerUI url={url} plugins={plugins} docExpansion="list" deepLinking displayOperationId tryItOutEnabled={false} />
    </>
  );
}

export default function ApiReference(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  const builtWith = String(siteConfig.customFields?.apiSpecUrl);
  return (
    <Layout title="API Reference" description="The whole Coverline API contract, loaded live from a running API.">
      <main className="container margin-vert--lg api-reference">
        <Heading as="h1">API Reference</Heading>
        <BrowserOnly fallback={<p>Loading the API reference from {builtWith}…</p>}>
          {() => <Reference builtWith={builtWith} />}
        </BrowserOnly>
      </main>
    </Layout>
  );
}
