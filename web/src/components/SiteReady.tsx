import type { ReactNode } from 'react';
import { useSiteSelection } from '../features/access/SiteContext';
import { Loading } from './Loading';

/**
 * A new record's form takes the selected site when it opens, so a form opened by its URL
 * waits until the user's sites are known.
 */
export function SiteReady({ children }: { children: ReactNode }) {
  const { loading } = useSiteSelection();
  return loading ? <Loading /> : <>{children}</>;
}
