import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { clockNote } from '../../components/siteClock';
import { ALL_SITES_ID } from '../../constants';
import { useSiteOptions } from '../sites/queries';
import { useCurrentUser } from './queries';
import {
  pathWithSite,
  resolveSite,
  siteNameLookup,
  siteOptionsFor,
  type SiteOption,
} from './siteSelection';

export interface SiteSelection {
  sites: SiteOption[];
  /** The selected site's id; undefined while loading or when the user has no site. */
  siteId: string | undefined;
  site: SiteOption | undefined;
  isAllSites: boolean;
  /** A site's name by id, from the sites the user already has ('' when unknown). */
  siteName: (id: string | null | undefined) => string;
  loading: boolean;
  setSite: (id: string) => void;
}

const SiteContext = createContext<SiteSelection | null>(null);

const STORAGE_KEY = 'tagtrack.site';

function rememberedSite(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function rememberSite(id: string) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, id);
  } catch {
    // Storage can be unavailable (private mode); the URL still carries the site.
  }
}

export function SiteProvider({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const me = useCurrentUser();
  const sitesQuery = useSiteOptions(me.isSuccess);
  const sites = useMemo(
    () => siteOptionsFor(sitesQuery.data ?? [], me.data),
    [sitesQuery.data, me.data],
  );
  const wanted = params.get('site');
  // A link without the param keeps the site chosen last; the URL is then put back in step.
  // Nothing is chosen until the sites are known, so a valid site is never replaced early.
  const site = sitesQuery.isSuccess ? resolveSite(sites, wanted ?? rememberedSite()) : undefined;
  const siteId = site?.id;

  useEffect(() => {
    if (!siteId) return;
    rememberSite(siteId);
    if (wanted !== siteId) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('site', siteId);
          return next;
        },
        { replace: true },
      );
    }
  }, [siteId, wanted, setParams]);

  const setSite = useCallback(
    (id: string) => {
      rememberSite(id);
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set('site', id);
        // A new site starts its lists from the first page.
        next.delete('page');
        return next;
      });
    },
    [setParams],
  );

  const siteName = useMemo(() => siteNameLookup(sites), [sites]);

  const value = useMemo<SiteSelection>(
    () => ({
      sites,
      siteId,
      site,
      isAllSites: siteId === ALL_SITES_ID,
      siteName,
      loading: me.isPending || sitesQuery.isPending,
      setSite,
    }),
    [sites, siteId, site, siteName, me.isPending, sitesQuery.isPending, setSite],
  );
  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}

const NO_SITE: SiteSelection = {
  sites: [],
  siteId: undefined,
  site: undefined,
  isAllSites: false,
  siteName: () => '',
  loading: false,
  setSite: () => undefined,
};

export function useSiteSelection(): SiteSelection {
  return useContext(SiteContext) ?? NO_SITE;
}

export interface SiteClock {
  /** The zone of the selected site, or the one zone of every site; else undefined. */
  zone: string | undefined;
  /** The zone of one site (a row's, with All Sites). */
  zoneOf: (siteId: string) => string | undefined;
  /** 'times in Europe/Amsterdam', or on each site's clock. */
  note: string;
}

/** The clock a site report's times are on: its site's, and with All Sites each row's. */
export function useSiteClock(): SiteClock {
  const { sites, site, isAllSites } = useSiteSelection();
  return useMemo(() => {
    const zones = isAllSites ? sites.map((s) => s.timezone) : [site?.timezone ?? ''];
    const distinct = [...new Set(zones.filter(Boolean))];
    const byId = new Map(sites.map((s) => [s.id, s.timezone || undefined]));
    return {
      zone: distinct.length === 1 ? distinct[0] : undefined,
      zoneOf: (siteId: string) => byId.get(siteId),
      note: clockNote(distinct),
    };
  }, [sites, site, isAllSites]);
}

/** Builds in-app paths that keep the selected site in the query. */
export function useSitePath(): (path: string) => string {
  const { siteId } = useSiteSelection();
  return useCallback((path: string) => pathWithSite(path, siteId), [siteId]);
}

/** navigate() that keeps the selected site. */
export function useSiteNavigate() {
  const navigate = useNavigate();
  const sitePath = useSitePath();
  return useCallback(
    (path: string, options?: { replace?: boolean }) => navigate(sitePath(path), options),
    [navigate, sitePath],
  );
}
