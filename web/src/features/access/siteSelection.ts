import { ALL_SITES_ID, ALL_SITES_NAME } from '../../constants';

export interface SiteOption {
  id: string;
  name: string;
  /** The site's IANA time zone; empty for All Sites. */
  timezone: string;
}

/** The selector's entries: 'All Sites' first for users allowed every site, then the sites. */
export function siteOptionsFor(
  sites: readonly { _id: string; name: string; timezone?: { id: string } }[],
  user: { superAdmin?: boolean; securityCtx?: { sites?: string[] } } | undefined,
): SiteOption[] {
  const options = sites.map((s) => ({ id: s._id, name: s.name, timezone: s.timezone?.id ?? '' }));
  const allSites = user?.superAdmin || (user?.securityCtx?.sites ?? []).includes(ALL_SITES_ID);
  const all = { id: ALL_SITES_ID, name: ALL_SITES_NAME, timezone: '' };
  return allSites ? [all, ...options] : options;
}

/** The selected site: the one asked for when it exists, else the first (the default). */
export function resolveSite(
  options: readonly SiteOption[],
  wanted: string | null | undefined,
): SiteOption | undefined {
  return options.find((o) => o.id === wanted) ?? options[0];
}

/** A path with the site query param set, keeping any query it already has. */
export function pathWithSite(path: string, siteId: string | undefined): string {
  if (!siteId) return path;
  const [base, query = ''] = path.split('?', 2);
  const params = new URLSearchParams(query);
  params.set('site', siteId);
  return `${base}?${params.toString()}`;
}

/** A site's name by id ('' for an id the user has no site for). */
export function siteNameLookup(
  options: readonly SiteOption[],
): (id: string | null | undefined) => string {
  const names = new Map(options.map((o) => [o.id, o.name]));
  return (id) => (id ? (names.get(id) ?? '') : '');
}
