import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
// Written by `npm run gen-api-docs` (docusaurus-plugin-openapi-docs) from the contract: one entry per
// operation, each carrying its x-doc-slug in customProps.docSlug (src/openapi/generators.ts).
import generated from './docs/api/sidebar';

interface DocEntry { type: 'doc'; id: string; label?: string; className?: string; customProps?: { docSlug?: string } }
interface CategoryEntry { type: 'category'; label: string; collapsed: boolean; items: Item[]; link?: { type: 'doc'; id: string } }
type Item = DocEntry | CategoryEntry | string;

/**
 * The reference part of the sidebar follows the folders of the operations' page paths
 * (x-doc-slug `Policies/vehicle/all-vehicles` sits under Policies, Vehicles), so a new operation
 * lands in its place as soon as it is in the contract. A folder listed here gets its label and
 * position; any other folder still shows, labelled by its name, after these.
 */
interface Section {
  label: string;
  /** Page-path folders whose operations this section lists. */
  folders: string[];
  /** Page path of the section's index page: an operation's page if one has it, else a hand-written doc. */
  index?: string;
  children?: Section[];
}

const SECTIONS: Section[] = [
  { label: 'Authorization', folders: ['Authorization'] },
  { label: 'Account', folders: ['account'] },
  { label: 'Delivery addresses', folders: ['delivery_addresses'] },
  { label: 'Documents', folders: ['document_upload'] },
  { label: 'Products', folders: ['Products'], index: 'category/products' },
  {
    label: 'Policies',
    folders: ['Policies'],
    children: [
      { label: 'Create policy', folders: ['Policies/Create-policy'], index: 'category/create-policy' },
      { label: 'Vehicles', folders: ['Policies/vehicle'] },
    ],
  },
  { label: 'Quotes', folders: ['policy-quotes'], children: [{ label: 'Get a quote', folders: ['policy-quotes/Get-quote'] }] },
  { label: 'Cart', folders: ['policies_cart'] },
  { label: 'Policy closures', folders: ['policy_closures'] },
  { label: 'Transactions', folders: ['transaction'] },
  { label: 'Sandbox', folders: ['sandbox'] },
  { label: 'Invoices', folders: ['invoices'] },
  { label: 'Claims', folders: ['claims'] },
  { label: 'Direct debits', folders: ['direct_debits'] },
  { label: 'Reference data', folders: ['Insurers', 'countries', 'currencies', 'companies'] },
  { label: 'Staff', folders: ['staff'], children: [{ label: 'Staff authorization', folders: ['staff/auth'] }, { label: 'Selling for clients', folders: ['staff/sales'] }, { label: 'Payments', folders: ['staff/payments'] }, { label: 'Claims', folders: ['staff/claims'] }, { label: 'Policy closures', folders: ['staff/policy-closures'] }, { label: 'Audit trail', folders: ['staff/audit-events'] }, { label: 'Events', folders: ['staff/events'] }, { label: 'Webhooks', folders: ['staff/webhooks'] }] },
  { label: 'Platform operator', folders: ['operator'] },
  { label: 'System', folders: ['system'] },
];

/**
 * The webhooks' pages (the contract's `webhooks`, one per event type, at `webhooks/<object>/<event>`)
 * sit under the Webhooks guide, which stays in the guides' place, grouped by object.
 */
const WEBHOOK_EVENTS: Section = {
  label: 'Webhooks',
  folders: ['webhooks'],
  index: 'webhooks',
  children: [
    ['client', 'Client events'], ['policy', 'Policy events'], ['invoice', 'Invoice events'], ['transaction', 'Payment events'],
    ['direct-debit', 'Direct debit events'], ['claim', 'Claim events'], ['policy-closure', 'Policy closure events'],
    ['product', 'Product events'], ['staff', 'Staff member events'], ['webhook-endpoint', 'Webhook endpoint events'],
  ].map(([folder, label]) => ({ label, folders: [`webhooks/${folder}`] })),
};

function docsOf(items: unknown[]): DocEntry[] {
  return items.flatMap((item: any) => (item?.type === 'doc' ? [item as DocEntry] : item?.items ? docsOf(item.items) : []));
}

const operations = docsOf(generated as unknown[]);
const bySlug = new Map(operations.flatMap((doc) => (doc.customProps?.docSlug ? [[doc.customProps.docSlug, doc] as const] : [])));
const folderOf = (slug: string) => slug.split('/').slice(0, -1).join('/');

function allSections(sections: Section[]): Section[] {
  return sections.flatMap((s) => [s, ...allSections(s.children ?? [])]);
}

/** The section for a folder: the one listing it, else the one listing its nearest parent folder. */
function sectionFor(folder: string, sections: Section[]): Section | undefined {
  const parts = folder.split('/');
  for (let n = parts.length; n > 0; n -= 1) {
    const found = allSections(sections).find((s) => s.folders.includes(parts.slice(0, n).join('/')));
    if (found) return found;
  }
  return undefined;
}

const placed = new Map<Section, DocEntry[]>();
const indexPages = new Set(allSections([...SECTIONS, WEBHOOK_EVENTS]).flatMap((s) => (s.index ? [s.index] : [])));
const extra: Section[] = [];
const loose: DocEntry[] = [];
for (const doc of operations) {
  const slug = doc.customProps?.docSlug;
  if (slug && indexPages.has(slug)) continue; // it is a section's index page
  const folder = slug ? folderOf(slug) : '';
  if (!folder) { loose.push(doc); continue; }
  let section = sectionFor(folder, [...SECTIONS, WEBHOOK_EVENTS]) ?? sectionFor(folder, extra);
  if (!section) {
    section = { label: folder.split('/')[0], folders: [folder.split('/')[0]] };
    extra.push(section);
  }
  placed.set(section, [...(placed.get(section) ?? []), doc]);
}

function categoryOf(section: Section): Item | undefined {
  const items: Item[] = [
    ...(placed.get(section) ?? []).map((doc) => ({ type: 'doc' as const, id: doc.id, label: doc.label, className: doc.className })),
    ...(section.children ?? []).flatMap((child) => categoryOf(child) ?? []),
  ];
  const indexDoc = section.index ? (bySlug.get(section.index)?.id ?? section.index) : undefined;
  if (items.length === 0 && !indexDoc) return undefined;
  return {
    type: 'category',
    label: section.label,
    collapsed: true,
    items,
    ...(indexDoc && { link: { type: 'doc' as const, id: indexDoc } }),
  };
}

const docs: Item[] = [
  'quick-start',
  'intro',
  'authentication',
  'staff-permissions',
  'state-machines',
  'errors',
  'messages',
  'audit-trail',
  categoryOf(WEBHOOK_EVENTS) ?? 'webhooks',
  'scaling',
  'operating',
  'changelog',
  ...[...SECTIONS, ...extra].flatMap((section) => categoryOf(section) ?? []),
  ...loose.map((doc) => ({ type: 'doc' as const, id: doc.id, label: doc.label, className: doc.className })),
];

const sidebars: SidebarsConfig = { docs: docs as SidebarsConfig[string] };

export default sidebars;
