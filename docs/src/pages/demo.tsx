import type { ReactNode } from 'react';
import BrowserOnly from '@docusaurus/BrowserOnly';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';

/**
 * The console (issue 30), a reference client for the API: client-side only, since it calls the API
 * from the reader's browser with a token kept in memory. The static HTML carries the heading and a
 * line saying it loads; the console module is in this route's chunk but only run in the browser.
 */
export default function Demo(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  const builtWith = String(siteConfig.customFields?.apiBaseUrl ?? 'http://localhost:3000/api/v1');
  return (
    <Layout title="Demo console" description="A reference client for the Coverline API: sign in and list products, in your browser.">
      <main className="container margin-vert--lg console">
        <Heading as="h1">Demo console</Heading>
        <BrowserOnly fallback={<p>Loading the console…</p>}>
          {() => {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const Console = require('../console/Console').default as typeof import('../console/Console').default;
            return <Console builtWith={builtWith} />;
          }}
        </BrowserOnly>
      </main>
    </Layout>
  );
}
