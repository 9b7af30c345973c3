/**
 * The console's screens live after the page's `#` (/demo#/policies/…): a static host serves /demo
 * whatever the screen, and the back button moves between screens as readers expect.
 */
import { useEffect, useState } from 'react';

export interface Route { path: string; segments: string[]; query: URLSearchParams }

function read(): Route {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = hash.split('?');
  return { path, segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** The `href` of a screen: `href('policies', id)` is `#/policies/<id>`. */
export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join('/')}`;

export function navigate(to: string): void {
  window.location.hash = to.replace(/^#/, '');
}
