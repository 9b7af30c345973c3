import type { ReactNode } from 'react';
import { useLocation } from '@docusaurus/router';
import { useDocsSidebar } from '@docusaurus/plugin-content-docs/client';
import type { PropSidebarItem, PropSidebarItemCategory } from '@docusaurus/plugin-content-docs';
import DocCardList from '@theme/DocCardList';

const trim = (href: string) => href.replace(/\/$/, '');

function categoryAt(items: PropSidebarItem[], pathname: string): PropSidebarItemCategory | undefined {
  for (const item of items) {
    if (item.type !== 'category') continue;
    if (item.href && trim(item.href) === trim(pathname)) return item;
    const inner = categoryAt(item.items, pathname);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Cards for the pages of the sidebar category this page is the index of. The category's pages are
 * generated from the contract, so it may have none yet: then `children` shows instead.
 */
export default function SectionPages({ children }: { children?: ReactNode }): ReactNode {
  const sidebar = useDocsSidebar();
  const { pathname } = useLocation();
  const category = sidebar ? categoryAt(sidebar.items, pathname) : undefined;
  if (!category || category.items.length === 0) return <>{children}</>;
  return <DocCardList items={category.items} />;
}
