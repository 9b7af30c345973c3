import type { ReactNode } from 'react';
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

function Reference({ builtWith }: { builtWith: string }): ReactNode {
  // swagger-ui touches `window` as it loads, so it is only ever loaded in the browser.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const SwaggerUI = require('swagger-ui-react').default;
  require('swagger-ui-react/swagger-ui.css');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const url = specUrl(builtWith);
  return (
    <>
      <p className="api-reference__source">
        Loaded in your browser from <a href={url}><code>{url}</code></a>, the contract the running API serves.
        Start the API (<code>npm start</code> in the API repository) if it does not load, or add{' '}
        <code>?url=&lt;address of an openapi.json&gt;</code> to this page&apos;s address to read another one.
      </p>
      <SwaggerUI url={url} docExpansion="list" deepLinking displayOperationId tryItOutEnabled={false} />
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
