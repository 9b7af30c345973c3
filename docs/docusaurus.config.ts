import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as Preset from '@docusaurus/preset-classic';
import type { Config } from '@docusaurus/types';
import type * as OpenApiPlugin from 'docusaurus-plugin-openapi-docs';
import { themes as prismThemes } from 'prism-react-renderer';
import { withExampleDatesFor } from '../server/platform/example-dates';
import { withDecisionExamples } from './src/openapi/decision-examples';
import { apiPageMarkdown, sidebarDocItem } from './src/openapi/generators';

// The contract: the bundle `npm run generate` writes in the repository root (committed,
// drift-checked in CI), its examples dated for the day in its info.x-examples-anchor-date.
const BUNDLE_PATH = '../generated/openapi.json';
const contract = JSON.parse(readFileSync(path.resolve(__dirname, BUNDLE_PATH), 'utf8'));

// Where /api-reference fetches the live contract from, in the browser. Set API_SPEC_URL when
// building for another environment; a reader can also point the page elsewhere with ?url=.
const API_SPEC_URL = process.env.API_SPEC_URL || 'http://localhost:3000/api/v1/openapi.json';
const REPO_URL = process.env.DOCS_REPO_URL || 'https://github.com/coverline/coverline-api';

// The "Send API Request" panel calls the server chosen in its Base URL box, which lists the
// contract's servers. The docs put one more first: `{baseUrl}`, a server variable the reader edits
// (Edit, then type the address of any running Coverline API), kept by the theme for the browser tab.
// The theme's own mechanism for a base URL it cannot know (the plugin reads `servers` as given), so
// the operation pages are generated from the contract plus this server; the contract is unchanged.
// API_BASE_URL sets its default when building for another environment (else the sandbox server).
// The copy's examples have their dates moved to the day of the build, as the API serves its
// contract (server/platform/example-dates.ts); written on every load of this file, never committed.
const API_BASE_URL = process.env.API_BASE_URL || contract.servers?.[0]?.url || 'http://localhost:3000/api/v1';
const DOCS_SPEC_PATH = path.resolve(__dirname, '.docusaurus/openapi-with-reader-server.json');
mkdirSync(path.dirname(DOCS_SPEC_PATH), { recursive: true });
// Staff decisions' examples without invented free text first (src/openapi/decision-examples.ts).
writeFileSync(DOCS_SPEC_PATH, JSON.stringify({
  ...withDecisionExamples(withExampleDatesFor(contract, new Date())),
  servers: [
    {
      url: '{baseUrl}',
      description: 'Your Coverline API: set baseUrl to its address, up to /api/v1 (the API must allow this site\'s origin: CORS_ORIGINS)',
      variables: { baseUrl: { default: API_BASE_URL, description: 'The API\'s base URL, e.g. http://localhost:3000/api/v1' } },
    },
    ...(contract.servers ?? []),
  ],
}));
// The documentation's own version (the docs version dropdown), and the API version it describes:
// the contract's info.version, shown beside it and wherever a page names the API's version.
const DOCS_VERSION = '2.1.0';
const API_VERSION: string = contract.info.version;
const SITE_URL = process.env.DOCS_SITE_URL || 'https://developers.coverline.example';

// Hand-written stand-ins for pages the surface map gives to an operation (createPolicy's page is the
// Create policy category index). Once the operation is in the contract its generated page takes the
// address and the stand-in is left out of the build.
const STAND_INS: Record<string, string> = { 'category/create-policy': 'category/create-policy.mdx' };
const contractSlugs = new Set<string>();
for (const item of Object.values<Record<string, { 'x-doc-slug'?: string }>>(contract.paths)) {
  for (const op of Object.values(item)) if (op && typeof op === 'object' && op['x-doc-slug']) contractSlugs.add(op['x-doc-slug']);
}
const replacedStandIns = Object.entries(STAND_INS).filter(([slug]) => contractSlugs.has(slug)).map(([, file]) => file);

const config: Config = {
  title: 'Coverline Developers',
  tagline: 'Sell and administer insurance policies through one REST API',
  favicon: 'img/favicon.svg',
  url: SITE_URL,
  baseUrl: '/',
  organizationName: 'coverline',
  projectName: 'coverline-api',
  titleDelimiter: '|',
  onBrokenLinks: 'warn',
  onBrokenAnchors: 'warn',
  markdown: { hooks: { onBrokenMarkdownLinks: 'warn' } },
  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
    localeConfigs: { en: { label: 'English', htmlLang: 'en' } },
  },
  customFields: { apiSpecUrl: API_SPEC_URL, apiBaseUrl: API_BASE_URL, repoUrl: REPO_URL, apiVersion: API_VERSION },

  presets: [
    [
      'classic',
      {
        docs: {
          sidebarPath: './sidebars.ts',
          // Renders the generated operation pages (and plain docs like any other doc page).
          docItemComponent: '@theme/ApiItem',
          lastVersion: 'current',
          versions: { current: { label: `${DOCS_VERSION} · API ${API_VERSION}` } },
          // Docusaurus's own excludes (partials such as _configuration-variables.md are imported, not pages; tests), which a list here replaces.
          exclude: ['**/_*.{js,jsx,ts,tsx,md,mdx}', '**/_*/**', '**/*.test.{js,jsx,ts,tsx}', '**/__tests__/**', ...replacedStandIns],
        },
        blog: {
          showReadingTime: true,
          blogSidebarCount: 'ALL',
          blogSidebarTitle: 'All posts',
          onInlineTags: 'warn',
          onInlineAuthors: 'warn',
          onUntruncatedBlogPosts: 'warn',
        },
        theme: { customCss: './src/css/custom.css' },
      } satisfies Preset.Options,
    ],
  ],

  plugins: [
    [
      'docusaurus-plugin-openapi-docs',
      {
        id: 'openapi',
        docsPluginId: 'classic',
        config: {
          coverline: {
            specPath: DOCS_SPEC_PATH,
            outputDir: 'docs/api',
            // Front matter (the page's address from x-doc-slug) and body of each operation page.
            template: 'src/openapi/api.mustache',
            markdownGenerators: { createApiPageMD: apiPageMarkdown },
            showInfoPage: false,
            sidebarOptions: { groupPathsBy: 'tag', sidebarGenerators: { createDocItem: sidebarDocItem } },
          } satisfies OpenApiPlugin.Options,
        },
      },
    ],
    // swagger-ui-react (the /api-reference page) imports Node's `stream`, which browsers lack.
    () => ({ name: 'coverline-webpack-fallbacks', configureWebpack: () => ({ resolve: { fallback: { stream: false } } }) }),
  ],

  themes: [
    'docusaurus-theme-openapi-docs',
    [
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        language: ['en'],
        indexDocs: true,
        indexBlog: true,
        indexPages: true,
        docsRouteBasePath: '/docs',
        explicitSearchResultPath: true,
        highlightSearchTermsOnTargetPage: false,
        searchResultLimits: 10,
      },
    ],
  ],

  themeConfig: {
    // Where the Send API Request panel keeps what the reader enters (credentials, and the Base URL
    // box's server and baseUrl): this browser tab only, so a key typed here does not outlive it.
    api: { authPersistence: 'sessionStorage' },
    // The operation pages' code samples: curl first (every guide's commands are curl), then the
    // languages integrators ask for most. Without this list the theme shows all of its languages.
    languageTabs: [
      { highlight: 'bash', language: 'curl', logoClass: 'curl' },
      { highlight: 'javascript', language: 'nodejs', logoClass: 'nodejs' },
      { highlight: 'python', language: 'python', logoClass: 'python' },
      { highlight: 'javascript', language: 'javascript', logoClass: 'javascript' },
      { highlight: 'java', language: 'java', logoClass: 'java' },
      { highlight: 'kotlin', language: 'kotlin', logoClass: 'kotlin' },
      { highlight: 'swift', language: 'swift', logoClass: 'swift' },
      { highlight: 'dart', language: 'dart', logoClass: 'dart' },
      { highlight: 'go', language: 'go', logoClass: 'go' },
      { highlight: 'php', language: 'php', logoClass: 'php' },
      { highlight: 'ruby', language: 'ruby', logoClass: 'ruby' },
      { highlight: 'csharp', language: 'csharp', logoClass: 'csharp' },
      { highlight: 'powershell', language: 'powershell', logoClass: 'powershell' },
    ],
    colorMode: { defaultMode: 'light', disableSwitch: false, respectPrefersColorScheme: false },
    announcementBar: {
      // A new id per API version, so a reader who closed the bar sees it again for the next version.
      id: `docs-${DOCS_VERSION}-api-${API_VERSION}`.replace(/\./g, '-'),
      content:
        `Coverline docs ${DOCS_VERSION}, API ${API_VERSION}: start with the <a href="/docs/quick-start">Quick start</a>, from sign-up to a paid policy in the sandbox. What changed: the <a href="/docs/changelog">Changelog</a>.`,
      isCloseable: true,
    },
    docs: { sidebar: { hideable: true, autoCollapseCategories: false } },
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3 },
    navbar: {
      title: 'Coverline',
      logo: { alt: 'Coverline', src: 'img/logo.svg' },
      items: [
        { type: 'docSidebar', sidebarId: 'docs', position: 'left', label: 'Documentation' },
        // The demo console (src/pages/demo.tsx). The Blog is in the footer: a navbar item of its own made
        // the bar wider than 1280 px, and "API Reference" covered it (axe target-size).
        { to: '/demo', label: 'Demo', position: 'left' },
        { to: '/api-reference', label: 'API Reference', position: 'right' },
        { to: '/sandbox-mailbox', label: 'Sandbox mailbox', position: 'right' },
        { to: '/faq/', label: 'FAQs', position: 'right' },
        {
          type: 'docsVersionDropdown',
          position: 'right',
          // The Changelog sits under the version it describes (a navbar link of its own crowded the bar at 1280 px).
          dropdownItemsAfter: [{ to: '/docs/changelog', label: 'Changelog' }],
        },
        { type: 'localeDropdown', position: 'right' },
        { type: 'search', position: 'right' },
        { href: REPO_URL, label: 'Source', position: 'right', 'aria-label': 'Source repository' },
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Documentation',
          items: [
            { label: 'Introduction', to: '/docs' },
            { label: 'Authentication', to: '/docs/authentication' },
            { label: 'API Reference', to: '/api-reference' },
            { label: 'Sandbox mailbox', to: '/sandbox-mailbox' },
          ],
        },
        {
          title: 'Help',
          items: [
            { label: 'FAQs', to: '/faq/' },
            { label: 'Developer support', href: 'mailto:developers@coverline.example' },
          ],
        },
        {
          title: 'More',
          items: [
            { label: 'Blog', to: '/blog' },
            { label: 'Source repository', href: REPO_URL },
          ],
        },
      ],
      copyright: `Copyright © ${new Date().getFullYear()} Coverline. Built with Docusaurus.`,
    },
    prism: {
      theme: prismThemes.github,
      darkTheme: prismThemes.dracula,
      // The languages of the code samples on the operation pages.
      additionalLanguages: ['bash', 'json', 'ruby', 'csharp', 'php', 'java', 'powershell', 'dart', 'kotlin', 'rust', 'objectivec', 'r', 'swift'],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
