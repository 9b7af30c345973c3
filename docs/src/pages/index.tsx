import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';

interface Feature { title: string; to: string; text: string }

const FEATURES: Feature[] = [
  {
    title: 'Start in minutes',
    to: '/docs',
    text: 'Run the sandbox locally with its seeded company, insurers and products, then sign a client up with one call.',
  },
  {
    title: 'Keys and tokens',
    to: '/docs/authentication',
    text: 'An Api-Key names the company on every call; a bearer token from login names the client. One error body everywhere.',
  },
  {
    title: 'Every operation, one page',
    to: '/docs/Authorization/Login',
    text: 'Generated from the API contract: parameters, schemas, examples, code samples, and a panel that sends the request.',
  },
  {
    title: 'Live API reference',
    to: '/api-reference',
    text: 'The whole contract in one page, loaded from a running API, so it always shows what that API serves.',
  },
  {
    title: 'Products clients can buy',
    to: '/docs/category/products',
    text: 'Browse the company\u2019s ACTIVE ONLINE products by policy type, insurer or name, a page at a time.',
  },
  {
    title: 'Policies, claims and payments',
    to: '/docs/category/create-policy',
    text: 'About thirty policy types, quotes, the cart, payments and receipts, invoices, direct debits and claims, one page per call.',
  },
];

export default function Home(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  return (
    <Layout title="Home" description={siteConfig.tagline}>
      <header className="hero hero--primary hero--coverline">
        <div className="container">
          <Heading as="h1" className="hero__title">{siteConfig.title}</Heading>
          <p className="hero__subtitle">{siteConfig.tagline}</p>
          <div className="buttons">
            <Link className="button button--secondary button--lg" to="/docs">Read the introduction</Link>
            <Link className="button button--outline button--secondary button--lg" to="/api-reference">Open the API reference</Link>
          </div>
        </div>
      </header>
      <main>
        <section className="features">
          <div className="container">
            <div className="row">
              {FEATURES.map((feature) => (
                <div key={feature.title} className="col col--4 margin-bottom--lg">
                  <Link to={feature.to} className="card padding--lg">
                    <Heading as="h2" className="h3">{feature.title}</Heading>
                    <p className="margin-bottom--none">{feature.text}</p>
                  </Link>
                </div>
              ))}
            </div>
          </div>
        </section>
      </main>
    </Layout>
  );
}
