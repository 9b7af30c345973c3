import type { ReactNode } from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';

/**
 * The API version these pages describe: the contract's `info.version`, read when the site is built
 * (docusaurus.config.ts, customFields.apiVersion), so no page states a version of its own.
 */
export default function ApiVersion(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  return <>{String(siteConfig.customFields?.apiVersion ?? '')}</>;
}
