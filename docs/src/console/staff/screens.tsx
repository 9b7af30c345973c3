/** The staff side's screens and its navigation, each item shown only to those the permission table lets read it. */
import type { ReactNode } from 'react';
import type { NavItem } from '../Console';
import type { Route } from '../router';
import { ClientDetail, Clients, NewClient, Policies, PolicyDetail, Products } from './book';
import { Organisation } from './organisation';
import { ClaimDetail, Claims, Closures, Payments } from './work';

export const STAFF_NAV: NavItem[] = [
  { path: 'payments', label: 'Payments', operationId: 'listStaffTransactions' },
  { path: 'claims', label: 'Claims', operationId: 'listStaffClaims' },
  { path: 'closures', label: 'Closures', operationId: 'listStaffPolicyClosures' },
  { path: 'policies', label: 'Policies', operationId: 'listStaffPolicies' },
  { path: 'clients', label: 'Clients', operationId: 'listStaffClients' },
  { path: 'products', label: 'Products', operationId: 'listStaffProducts' },
  { path: 'organisation', label: 'Organisation', operationId: 'listBranches' },
];

export function StaffScreens({ route }: { route: Route }): ReactNode {
  const [screen, id] = route.segments;
  switch (screen) {
    case 'claims': return id ? <ClaimDetail id={id} /> : <Claims />;
    case 'closures': return <Closures />;
    case 'policies': return id ? <PolicyDetail id={id} /> : <Policies route={route} />;
    case 'clients': return id === 'new' ? <NewClient /> : id ? <ClientDetail id={id} /> : <Clients route={route} />;
    case 'products': return <Products />;
    case 'organisation': return <Organisation />;
    default: return <Payments />;
  }
}
