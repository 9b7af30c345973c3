/**
 * How docusaurus-plugin-openapi-docs turns each operation of the contract into a page: the body
 * (the plugin's own, with the operationId added) and the sidebar entry, which carries the page's
 * `x-doc-slug` so sidebars.ts can place it. The page's address itself is set in the front matter
 * template beside this file (api.mustache).
 */
import type * as OpenApiPlugin from 'docusaurus-plugin-openapi-docs';
import { createApiPageMD } from 'docusaurus-plugin-openapi-docs/lib/markdown';

type ApiPageGenerator = NonNullable<NonNullable<OpenApiPlugin.Options['markdownGenerators']>['createApiPageMD']>;
type DocItemGenerator = NonNullable<
  NonNullable<NonNullable<OpenApiPlugin.Options['sidebarOptions']>['sidebarGenerators']>['createDocItem']
>;

/** The operation's documentation page path (`Authorization/Login`), if the contract gives one. */
export function docSlugOf(operation: object): string | undefined {
  const slug = (operation as { 'x-doc-slug'?: unknown })['x-doc-slug'];
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

/**
 * The operation's error codes (its `x-error-codes`, by status) as a Markdown list, each code a link
 * to its entry on the Errors page (docs/docs/errors.md, written by `npm run generate`).
 */
export function errorCodesMarkdown(operation: object): string | undefined {
  const byStatus = (operation as { 'x-error-codes'?: Record<string, string[]> })['x-error-codes'];
  if (!byStatus || Object.keys(byStatus).length === 0) return undefined;
  const lines = Object.entries(byStatus).map(([status, codes]) =>
    `- **${status}**: ${codes.map((code) => `[\`${code}\`](/docs/errors#${code})`).join(', ')}`);
  return `**Errors** (the \`code\` of an error answer, by status; see [Errors](/docs/errors)):\n\n${lines.join('\n')}`;
}

/**
 * The plugin's page body, opening with the operationId (the SDK method and the server handler
 * share it) and ending with the error codes the operation can answer. A webhook's page (the
 * contract's `webhooks`, one per event type: the plugin's method `event`) is what the API sends
 * instead: it opens with the event type and the guide to receiving it.
 */
export const apiPageMarkdown: ApiPageGenerator = (page) => {
  const { operationId, description, method } = page.api;
  const note = method === 'event'
    ? `Event type \`${page.title}\`: what Coverline POSTs to your webhook endpoints. See [Webhooks](/docs/webhooks) for verifying a delivery, retries and ordering.`
    : operationId ? `Operation ID: \`${operationId}\` (the SDK method of the same name calls it).` : undefined;
  return createApiPageMD({
    ...page,
    infoPath: undefined, // the explorer's Authorization box (front matter info_path) links to the guide instead
    api: { ...page.api, description: [note, description, errorCodesMarkdown(page.api)].filter(Boolean).join('\n\n') },
  });
};

/** The plugin's sidebar entry, plus the page's slug in `customProps.docSlug`. */
export const sidebarDocItem: DocItemGenerator = (item, { basePath }) => {
  const id = item.type === 'schema' ? `schemas/${item.id}` : item.id;
  const api = item.type === 'api' ? item.api : undefined;
  const className = api
    ? ['api-method', api.method, api.deprecated ? 'menu__list-item--deprecated' : ''].filter(Boolean).join(' ')
    : 'schema';
  const docSlug = api ? docSlugOf(api) : undefined;
  return {
    type: 'doc',
    id: basePath ? `${basePath}/${id}` : id,
    label: (item.frontMatter.sidebar_label as string | undefined) ?? item.title ?? id,
    className,
    ...(docSlug && { customProps: { docSlug } }),
  };
};
